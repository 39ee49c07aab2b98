/**
 * Types of the operator's read API (`/api/operator/observe/…`, docs/observability.md),
 * from the generated OpenAPI schema. The console imports only these names.
 */
import type { ApiSchema } from '@/shared/api/client';

export type ObsSession = ApiSchema<'ObsSessionDto'>;
export type ObsSessionList = ApiSchema<'ObsSessionList'>;
export type ObsSessionDetail = ApiSchema<'ObsSessionDetail'>;
export type TimelineItem = ApiSchema<'TimelineItemDto'>;
export type ErrorGroup = ApiSchema<'ErrorGroupDto'>;
export type ErrorGroupList = ApiSchema<'ErrorGroupList'>;
export type ErrorGroupDetail = ApiSchema<'ErrorGroupDetail'>;
export type ErrorOccurrence = ApiSchema<'ErrorOccurrenceDto'>;
export type Feedback = ApiSchema<'FeedbackDto'>;
export type FeedbackList = ApiSchema<'FeedbackList'>;
export type VitalsReport = ApiSchema<'VitalsReport'>;
export type VitalStat = ApiSchema<'VitalStatDto'>;
export type VitalThreshold = ApiSchema<'VitalThresholdDto'>;
export type PageVitals = ApiSchema<'PageVitalsDto'>;
export type Trace = ApiSchema<'TraceDto'>;
export type Span = ApiSchema<'SpanDto'>;

/** One rrweb event as recorded: only `type` and `timestamp` are relied on here. */
export interface ReplayEvent {
  type: number;
  timestamp: number;
  data?: unknown;
  [key: string]: unknown;
}

/** One page of `GET …/sessions/{secure_id}/replay` (events typed for the player). */
export type ObsReplay = Omit<ApiSchema<'ObsReplay'>, 'events'> & { events: ReplayEvent[] };
