/** `GET /api/meta` for the operator's pages (version, clock, branding): the app's one server-meta query. */
export { useServerMeta as useMeta, type ServerMeta as Meta } from '@/entities/server/api/meta';
