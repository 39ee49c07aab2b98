//! The SQL of [`ObservabilityStorage`], one implementation for both backends.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Type};

use crate::observability::ObservabilityStorage;
use crate::sql::{RowsAffected, Sql, SqlStorage};

#[async_trait::async_trait]
impl<DB: Sql> ObservabilityStorage for SqlStorage<DB>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> &'r str: ColumnIndex<DB::Row>,
    usize: ColumnIndex<DB::Row>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    Option<i64>: for<'q> Encode<'q, DB>,
    Option<String>: for<'q> Encode<'q, DB>,
    Option<NaiveDate>: for<'q> Encode<'q, DB>,
    Option<DateTime<Utc>>: for<'q> Encode<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    String: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    bool: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    NaiveDate: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    DateTime<Utc>: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    f64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    Option<f64>: for<'q> Encode<'q, DB>,
    Vec<u8>: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
{
    async fn obs_upsert_session(
        &self,
        new: &crate::observability::NewObsSession,
    ) -> Result<crate::observability::ObsSessionRow, crate::StorageError> {
        let _db = crate::probe::op("obs_upsert_session");
        use crate::observability::session_columns;
        let row = sqlx::query_as(&format!(
            "INSERT INTO obs_sessions (secure_id, environment, app_version, client_version,
                 service_name, fingerprint, client_id, user_agent, ip_hash, started_at, last_push_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
             ON CONFLICT (secure_id) DO UPDATE SET
                 environment = excluded.environment,
                 app_version = COALESCE(excluded.app_version, obs_sessions.app_version),
                 client_version = COALESCE(excluded.client_version, obs_sessions.client_version),
                 service_name = COALESCE(excluded.service_name, obs_sessions.service_name),
                 fingerprint = COALESCE(excluded.fingerprint, obs_sessions.fingerprint),
                 client_id = COALESCE(excluded.client_id, obs_sessions.client_id),
                 user_agent = COALESCE(excluded.user_agent, obs_sessions.user_agent),
                 ip_hash = COALESCE(excluded.ip_hash, obs_sessions.ip_hash),
                 last_push_at = CASE WHEN excluded.last_push_at > obs_sessions.last_push_at
                     THEN excluded.last_push_at ELSE obs_sessions.last_push_at END
             RETURNING {}",
            session_columns()
        ))
        .bind(&new.secure_id)
        .bind(&new.environment)
        .bind(new.app_version.as_deref())
        .bind(new.client_version.as_deref())
        .bind(new.service_name.as_deref())
        .bind(new.fingerprint.as_deref())
        .bind(new.client_id.as_deref())
        .bind(new.user_agent.as_deref())
        .bind(new.ip_hash.as_deref())
        .bind(new.now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row)
    }

    async fn obs_ensure_session(
        &self,
        new: &crate::observability::NewObsSession,
    ) -> Result<crate::observability::ObsSessionRow, crate::StorageError> {
        let _db = crate::probe::op("obs_ensure_session");
        sqlx::query(
            "INSERT INTO obs_sessions (secure_id, environment, user_agent, ip_hash, started_at, last_push_at)
             VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (secure_id) DO NOTHING",
        )
        .bind(&new.secure_id)
        .bind(&new.environment)
        .bind(new.user_agent.as_deref())
        .bind(new.ip_hash.as_deref())
        .bind(new.now_ms)
        .execute(&self.pool)
        .await?;
        self.obs_session(&new.secure_id)
            .await?
            .ok_or(crate::StorageError::NotFound)
    }

    async fn obs_session(
        &self,
        secure_id: &str,
    ) -> Result<Option<crate::observability::ObsSessionRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_session");
        use crate::observability::{session_columns, SESSION_SELECT};
        let sql = format!(
            "{} WHERE secure_id = $1",
            SESSION_SELECT.replace("{cols}", session_columns())
        );
        Ok(sqlx::query_as(&sql)
            .bind(secure_id)
            .fetch_optional(&self.pool)
            .await?)
    }

    async fn obs_bind_session(
        &self,
        session_id: i64,
        user_identifier: &str,
        user_object: &str,
    ) -> Result<bool, crate::StorageError> {
        let _db = crate::probe::op("obs_bind_session");
        let done = sqlx::query(
            "UPDATE obs_sessions SET user_identifier = $1, user_object = $2
             WHERE id = $3 AND (user_identifier IS NULL OR user_identifier = $1)",
        )
        .bind(user_identifier)
        .bind(user_object)
        .bind(session_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn obs_set_session_properties(
        &self,
        session_id: i64,
        properties: &str,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("obs_set_session_properties");
        sqlx::query("UPDATE obs_sessions SET properties = $1 WHERE id = $2")
            .bind(properties)
            .bind(session_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn obs_store_push(
        &self,
        push: &crate::observability::NewPush,
    ) -> Result<bool, crate::StorageError> {
        let _db = crate::probe::op("obs_store_push");
        use crate::observability::OBS_INSERT_CHUNK;
        let mut tx = self.pool.begin().await?;
        // The first statement writes: the transaction holds the write lock
        // from the start (SQLite), and a replayed payload id stops here.
        let inserted = sqlx::query(
            "INSERT INTO obs_replay_chunks (session_id, payload_id, data, events, first_ts, last_ts, received_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (session_id, payload_id) DO NOTHING",
        )
        .bind(push.session_id)
        .bind(push.payload_id)
        .bind(&push.data)
        .bind(push.events)
        .bind(push.first_ts)
        .bind(push.last_ts)
        .bind(push.received_at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        for items in push.timeline.chunks(OBS_INSERT_CHUNK) {
            let mut b = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO obs_timeline (session_id, ts, kind, detail) ",
            );
            b.push_values(items, |mut row, item| {
                row.push_bind(push.session_id)
                    .push_bind(item.ts)
                    .push_bind(item.kind.clone())
                    .push_bind(item.detail.clone());
            });
            DB::execute_built(&mut b, &mut *tx).await?;
        }
        for items in push.console.chunks(OBS_INSERT_CHUNK) {
            let mut b = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO obs_console (session_id, ts, level, message, trace) ",
            );
            b.push_values(items, |mut row, item| {
                row.push_bind(push.session_id)
                    .push_bind(item.ts)
                    .push_bind(item.level.clone())
                    .push_bind(item.message.clone())
                    .push_bind(item.trace.clone());
            });
            DB::execute_built(&mut b, &mut *tx).await?;
        }
        for items in push.resources.chunks(OBS_INSERT_CHUNK) {
            let mut b = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO obs_resources (session_id, ts, initiator, method, url, status,
                     duration_ms, transfer_size, request_headers, response_headers,
                     request_body, response_body) ",
            );
            b.push_values(items, |mut row, r| {
                row.push_bind(push.session_id)
                    .push_bind(r.ts)
                    .push_bind(r.initiator.clone())
                    .push_bind(r.method.clone())
                    .push_bind(r.url.clone())
                    .push_bind(r.status)
                    .push_bind(r.duration_ms)
                    .push_bind(r.transfer_size)
                    .push_bind(r.request_headers.clone())
                    .push_bind(r.response_headers.clone())
                    .push_bind(r.request_body.clone())
                    .push_bind(r.response_body.clone());
            });
            DB::execute_built(&mut b, &mut *tx).await?;
        }
        for e in &push.errors {
            let group_id: i64 = sqlx::query_scalar(
                "INSERT INTO obs_error_groups (fingerprint, error_type, message, first_seen, last_seen, occurrences, sample_stack)
                 VALUES ($1, $2, $3, $4, $4, 1, $5)
                 ON CONFLICT (fingerprint) DO UPDATE SET
                     occurrences = obs_error_groups.occurrences + 1,
                     last_seen = CASE WHEN excluded.last_seen > obs_error_groups.last_seen
                         THEN excluded.last_seen ELSE obs_error_groups.last_seen END,
                     sample_stack = COALESCE(obs_error_groups.sample_stack, excluded.sample_stack)
                 RETURNING id",
            )
            .bind(&e.fingerprint)
            .bind(&e.error_type)
            .bind(&e.message)
            .bind(push.received_at)
            .bind(e.stack.as_deref())
            .fetch_one(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO obs_error_occurrences (group_id, session_id, ts, replay_offset_ms, url, message, source, stack)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(group_id)
            .bind(push.session_id)
            .bind(e.ts)
            .bind(e.replay_offset_ms)
            .bind(e.url.as_deref())
            .bind(&e.message)
            .bind(e.source.as_deref())
            .bind(e.stack.as_deref())
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "UPDATE obs_sessions SET
                 bytes_received = bytes_received + $1,
                 event_count = event_count + $2,
                 error_count = error_count + $3,
                 has_errors = CASE WHEN $3 > 0 THEN $4 ELSE has_errors END,
                 last_push_at = CASE WHEN $5 > last_push_at THEN $5 ELSE last_push_at END,
                 first_event_at = CASE WHEN first_event_at IS NULL OR $6 < first_event_at
                     THEN $6 ELSE first_event_at END,
                 first_url = COALESCE(first_url, $7)
             WHERE id = $8",
        )
        .bind(push.bytes)
        .bind(push.events)
        .bind(push.errors.len() as i64)
        .bind(true)
        .bind(push.received_at)
        .bind(push.first_ts)
        .bind(push.first_url.as_deref())
        .bind(push.session_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn obs_add_feedback(
        &self,
        f: &crate::observability::NewFeedback,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("obs_add_feedback");
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO obs_feedback (session_id, user_name, user_email, verbatim, ts)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(f.session_id)
        .bind(f.user_name.as_deref())
        .bind(f.user_email.as_deref())
        .bind(&f.verbatim)
        .bind(f.ts)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE obs_sessions SET has_feedback = $1 WHERE id = $2")
            .bind(true)
            .bind(f.session_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn obs_add_metrics(
        &self,
        metrics: &[crate::observability::NewMetric],
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("obs_add_metrics");
        use crate::observability::OBS_INSERT_CHUNK;
        if metrics.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        for items in metrics.chunks(OBS_INSERT_CHUNK) {
            let mut b = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO obs_metrics (session_secure_id, name, value, category, page, ts, tags, source) ",
            );
            b.push_values(items, |mut row, m| {
                row.push_bind(m.session_secure_id.clone())
                    .push_bind(m.name.clone())
                    .push_bind(m.value)
                    .push_bind(m.category.clone())
                    .push_bind(m.page.clone())
                    .push_bind(m.ts)
                    .push_bind(m.tags.clone())
                    .push_bind(m.source.clone());
            });
            DB::execute_built(&mut b, &mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn obs_add_spans(
        &self,
        spans: &[crate::observability::NewSpan],
    ) -> Result<u64, crate::StorageError> {
        let _db = crate::probe::op("obs_add_spans");
        use crate::observability::OBS_INSERT_CHUNK;
        if spans.is_empty() {
            return Ok(0);
        }
        let mut added = 0;
        let mut tx = self.pool.begin().await?;
        for items in spans.chunks(OBS_INSERT_CHUNK) {
            let mut b = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO obs_spans (trace_id, span_id, parent_span_id, name, service, kind,
                     start_ns, end_ns, status_code, status_message, attributes, session_secure_id) ",
            );
            b.push_values(items, |mut row, s| {
                row.push_bind(s.trace_id.clone())
                    .push_bind(s.span_id.clone())
                    .push_bind(s.parent_span_id.clone())
                    .push_bind(s.name.clone())
                    .push_bind(s.service.clone())
                    .push_bind(s.kind)
                    .push_bind(s.start_ns)
                    .push_bind(s.end_ns)
                    .push_bind(s.status_code)
                    .push_bind(s.status_message.clone())
                    .push_bind(s.attributes.clone())
                    .push_bind(s.session_secure_id.clone());
            });
            b.push(" ON CONFLICT (trace_id, span_id) DO NOTHING");
            added += DB::execute_built(&mut b, &mut *tx).await?.rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    }

    async fn obs_list_sessions(
        &self,
        f: &crate::observability::ObsSessionFilter,
    ) -> Result<Vec<crate::observability::ObsSessionRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_list_sessions");
        use crate::observability::{session_columns, SESSION_SELECT};
        let mut b =
            sqlx::QueryBuilder::<DB>::new(SESSION_SELECT.replace("{cols}", session_columns()));
        b.push(" WHERE 1 = 1");
        if let Some(member) = &f.member {
            b.push(" AND user_identifier = ").push_bind(member.clone());
        }
        if let Some(env) = &f.environment {
            b.push(" AND environment = ").push_bind(env.clone());
        }
        if let Some(from) = f.from_ms {
            b.push(" AND started_at >= ").push_bind(from);
        }
        if let Some(to) = f.to_ms {
            b.push(" AND started_at < ").push_bind(to);
        }
        if let Some(v) = f.has_errors {
            b.push(" AND has_errors = ").push_bind(v);
        }
        if let Some(v) = f.has_feedback {
            b.push(" AND has_feedback = ").push_bind(v);
        }
        if let Some(before) = f.before_id {
            b.push(" AND id < ").push_bind(before);
        }
        b.push(" ORDER BY id DESC LIMIT ").push_bind(f.limit);
        Ok(DB::fetch_all_built(&mut b, &self.pool).await?)
    }

    async fn obs_replay_chunks(
        &self,
        session_id: i64,
        after: Option<i64>,
        limit: i64,
    ) -> Result<Vec<crate::observability::ReplayChunkRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_replay_chunks");
        Ok(sqlx::query_as(
            "SELECT payload_id, data, events, first_ts, last_ts FROM obs_replay_chunks
             WHERE session_id = $1 AND events > 0 AND payload_id > $2
             ORDER BY payload_id LIMIT $3",
        )
        .bind(session_id)
        .bind(after.unwrap_or(i64::MIN))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_replay_chunk_count(&self, session_id: i64) -> Result<i64, crate::StorageError> {
        let _db = crate::probe::op("obs_replay_chunk_count");
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM obs_replay_chunks WHERE session_id = $1 AND events > 0",
        )
        .bind(session_id)
        .fetch_one(&self.pool)
        .await?)
    }

    async fn obs_timeline(
        &self,
        session_id: i64,
        limit: i64,
    ) -> Result<Vec<crate::observability::TimelineRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_timeline");
        Ok(sqlx::query_as(
            "SELECT ts, kind, detail FROM obs_timeline WHERE session_id = $1
             ORDER BY ts, id LIMIT $2",
        )
        .bind(session_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_console(
        &self,
        session_id: i64,
        limit: i64,
    ) -> Result<Vec<crate::observability::ConsoleRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_console");
        Ok(sqlx::query_as(
            "SELECT ts, level, message, trace FROM obs_console WHERE session_id = $1
             ORDER BY ts, id LIMIT $2",
        )
        .bind(session_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_resources(
        &self,
        session_id: i64,
        limit: i64,
    ) -> Result<Vec<crate::observability::ResourceRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_resources");
        Ok(sqlx::query_as(
            "SELECT ts, initiator, method, url, status, duration_ms, transfer_size,
                 request_headers, response_headers, request_body, response_body
             FROM obs_resources WHERE session_id = $1 ORDER BY ts, id LIMIT $2",
        )
        .bind(session_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_session_errors(
        &self,
        session_id: i64,
        limit: i64,
    ) -> Result<Vec<crate::observability::ErrorOccurrenceRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_session_errors");
        use crate::observability::OCCURRENCE_SELECT;
        Ok(sqlx::query_as(&format!(
            "{OCCURRENCE_SELECT} WHERE o.session_id = $1 ORDER BY o.ts, o.id LIMIT $2"
        ))
        .bind(session_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_error_groups(
        &self,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<crate::observability::ErrorGroupRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_error_groups");
        use crate::observability::GROUP_SELECT;
        Ok(sqlx::query_as(&format!(
            "{GROUP_SELECT} ORDER BY g.last_seen DESC, g.id DESC LIMIT $1 OFFSET $2"
        ))
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_error_group(
        &self,
        id: i64,
    ) -> Result<Option<crate::observability::ErrorGroupRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_error_group");
        use crate::observability::GROUP_SELECT;
        Ok(sqlx::query_as(&format!("{GROUP_SELECT} WHERE g.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?)
    }

    async fn obs_error_occurrences(
        &self,
        group_id: i64,
        limit: i64,
    ) -> Result<Vec<crate::observability::ErrorOccurrenceRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_error_occurrences");
        use crate::observability::OCCURRENCE_SELECT;
        Ok(sqlx::query_as(&format!(
            "{OCCURRENCE_SELECT} WHERE o.group_id = $1 ORDER BY o.ts DESC, o.id DESC LIMIT $2"
        ))
        .bind(group_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_feedback(
        &self,
        limit: i64,
        before_id: Option<i64>,
    ) -> Result<Vec<crate::observability::FeedbackRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_feedback");
        Ok(sqlx::query_as(
            "SELECT f.id, s.secure_id AS session_secure_id, s.user_identifier, f.user_name,
                 f.user_email, f.verbatim, f.ts
             FROM obs_feedback f JOIN obs_sessions s ON s.id = f.session_id
             WHERE ($1 IS NULL OR f.id < $1) ORDER BY f.id DESC LIMIT $2",
        )
        .bind(before_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_metric_values(
        &self,
        category: &str,
        from_ms: i64,
        to_ms: i64,
        limit: i64,
    ) -> Result<Vec<crate::observability::MetricPoint>, crate::StorageError> {
        let _db = crate::probe::op("obs_metric_values");
        Ok(sqlx::query_as(
            "SELECT name, page, value FROM obs_metrics
             WHERE category = $1 AND ts >= $2 AND ts < $3 ORDER BY ts DESC LIMIT $4",
        )
        .bind(category)
        .bind(from_ms)
        .bind(to_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_trace_spans(
        &self,
        trace_id: &str,
    ) -> Result<Vec<crate::observability::SpanRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_trace_spans");
        use crate::observability::SPAN_COLUMNS;
        Ok(sqlx::query_as(&format!(
            "SELECT {SPAN_COLUMNS} FROM obs_spans WHERE trace_id = $1 ORDER BY start_ns, id"
        ))
        .bind(trace_id)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn obs_purge_batch(
        &self,
        cutoff_ms: i64,
        batch: i64,
    ) -> Result<u64, crate::StorageError> {
        let _db = crate::probe::op("obs_purge_batch");
        use crate::observability::PURGE_STATEMENTS;
        for (sql, in_ns) in PURGE_STATEMENTS {
            let cutoff = if in_ns {
                cutoff_ms.saturating_mul(1_000_000)
            } else {
                cutoff_ms
            };
            let n = sqlx::query(sql)
                .bind(cutoff)
                .bind(batch.max(1))
                .execute(&self.pool)
                .await?
                .rows_affected();
            if n > 0 {
                return Ok(n);
            }
        }
        Ok(0)
    }

    async fn obs_member_sessions(
        &self,
        user_identifier: &str,
    ) -> Result<Vec<crate::observability::ObsSessionRow>, crate::StorageError> {
        let _db = crate::probe::op("obs_member_sessions");
        use crate::observability::{session_columns, SESSION_SELECT};
        let sql = format!(
            "{} WHERE user_identifier = $1 ORDER BY id DESC",
            SESSION_SELECT.replace("{cols}", session_columns())
        );
        Ok(sqlx::query_as(&sql)
            .bind(user_identifier)
            .fetch_all(&self.pool)
            .await?)
    }

    async fn obs_delete_member_sessions(
        &self,
        user_identifier: &str,
    ) -> Result<u64, crate::StorageError> {
        let _db = crate::probe::op("obs_delete_member_sessions");
        let mut tx = self.pool.begin().await?;
        // Metrics and spans name their session by secure id (they may arrive before
        // it); the rest goes with the session by cascade.
        for table in ["obs_metrics", "obs_spans"] {
            sqlx::query(&format!(
                "DELETE FROM {table} WHERE session_secure_id IN
                     (SELECT secure_id FROM obs_sessions WHERE user_identifier = $1)"
            ))
            .bind(user_identifier)
            .execute(&mut *tx)
            .await?;
        }
        let done = sqlx::query("DELETE FROM obs_sessions WHERE user_identifier = $1")
            .bind(user_identifier)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }

    async fn obs_counts(&self) -> Result<crate::observability::ObsCounts, crate::StorageError> {
        let _db = crate::probe::op("obs_counts");
        let row: (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM obs_sessions), (SELECT COUNT(*) FROM obs_replay_chunks),
                 (SELECT COUNT(*) FROM obs_timeline), (SELECT COUNT(*) FROM obs_console),
                 (SELECT COUNT(*) FROM obs_resources), (SELECT COUNT(*) FROM obs_error_groups),
                 (SELECT COUNT(*) FROM obs_error_occurrences), (SELECT COUNT(*) FROM obs_feedback),
                 (SELECT COUNT(*) FROM obs_metrics), (SELECT COUNT(*) FROM obs_spans)",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(crate::observability::ObsCounts {
            sessions: row.0,
            replay_chunks: row.1,
            timeline: row.2,
            console: row.3,
            resources: row.4,
            error_groups: row.5,
            error_occurrences: row.6,
            feedback: row.7,
            metrics: row.8,
            spans: row.9,
        })
    }
}
