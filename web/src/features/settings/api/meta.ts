/** `GET /api/meta` for settings (the operator's contact): the app's one server-meta query. */
export { useServerMeta as useMeta, type ServerMeta as Meta } from '@/entities/server/api/meta';
