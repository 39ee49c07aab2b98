//! Observability storage, run against every backend (SQLite always, PostgreSQL when
//! `MOAT_TEST_POSTGRES_URL` is set), each test on a fresh database.

use moat_storage::{
    observability::{
        NewConsoleMessage, NewErrorOccurrence, NewFeedback, NewMetric, NewObsSession, NewPush,
        NewResource, NewSpan, NewTimelineItem, ObsCounts, ObsSessionFilter,
    },
    testing::TestDatabase,
    Storage,
};

const T0: i64 = 1_790_000_000_000;

fn session(id: &str, now_ms: i64) -> NewObsSession {
    NewObsSession {
        secure_id: id.into(),
        environment: "production".into(),
        app_version: Some("1.0".into()),
        user_agent: Some("Mozilla/5.0".into()),
        ip_hash: Some("abcd".into()),
        now_ms,
        ..NewObsSession::default()
    }
}

fn error(fingerprint: &str, ts: i64) -> NewErrorOccurrence {
    NewErrorOccurrence {
        fingerprint: fingerprint.into(),
        error_type: "window.onerror".into(),
        message: "boom".into(),
        ts,
        replay_offset_ms: ts - T0,
        url: Some("/".into()),
        source: None,
        stack: Some("[{\"functionName\":\"f\"}]".into()),
    }
}

fn push(session_id: i64, payload_id: i64, received_at: i64) -> NewPush {
    NewPush {
        session_id,
        payload_id,
        data: vec![0x1f, 0x8b, 1, 2, 3],
        events: 2,
        first_ts: Some(T0 + 10),
        last_ts: Some(T0 + 20),
        received_at,
        bytes: 5,
        first_url: Some("https://m.example/".into()),
        timeline: vec![NewTimelineItem {
            ts: T0 + 10,
            kind: "navigate".into(),
            detail: "{\"url\":\"/x\"}".into(),
        }],
        console: vec![NewConsoleMessage {
            ts: T0 + 11,
            level: "warn".into(),
            message: "slow".into(),
            trace: None,
        }],
        resources: vec![NewResource {
            ts: T0 + 12,
            initiator: "fetch".into(),
            method: Some("GET".into()),
            url: "/api/me".into(),
            status: Some(200),
            duration_ms: Some(12.5),
            transfer_size: Some(300),
            request_headers: None,
            response_headers: None,
            request_body: None,
            response_body: None,
        }],
        errors: vec![error("fp1", T0 + 15)],
    }
}

fn span(trace: &str, span: &str, start_ns: i64) -> NewSpan {
    NewSpan {
        trace_id: trace.into(),
        span_id: span.into(),
        parent_span_id: None,
        name: "GET /api/me".into(),
        service: "moat-server".into(),
        kind: 2,
        start_ns,
        end_ns: start_ns + 1_000,
        status_code: 0,
        status_message: None,
        attributes: Some("{}".into()),
        session_secure_id: Some("s1".into()),
    }
}

#[tokio::test]
async fn sessions_upsert_and_pushes_are_idempotent() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let first = s.obs_upsert_session(&session("s1", T0)).await.unwrap();
        let again = s
            .obs_upsert_session(&NewObsSession {
                app_version: Some("1.1".into()),
                ..session("s1", T0 + 5_000)
            })
            .await
            .unwrap();
        assert_eq!(first.id, again.id, "{:?}", db.backend);
        assert_eq!(again.started_at, T0, "the start stays");
        assert_eq!(again.last_push_at, T0 + 5_000);
        assert_eq!(again.app_version.as_deref(), Some("1.1"));
        let ensured = s
            .obs_ensure_session(&session("s1", T0 + 9_000))
            .await
            .unwrap();
        assert_eq!(ensured, again, "ensure leaves an existing session alone");

        assert!(s
            .obs_store_push(&push(first.id, 100, T0 + 6_000))
            .await
            .unwrap());
        assert!(
            !s.obs_store_push(&push(first.id, 100, T0 + 7_000))
                .await
                .unwrap(),
            "replayed"
        );
        let c = s.obs_counts().await.unwrap();
        assert_eq!(
            c,
            ObsCounts {
                sessions: 1,
                replay_chunks: 1,
                timeline: 1,
                console: 1,
                resources: 1,
                error_groups: 1,
                error_occurrences: 1,
                ..ObsCounts::default()
            },
            "{:?}",
            db.backend
        );
        let row = s.obs_session("s1").await.unwrap().unwrap();
        assert_eq!(
            (row.bytes_received, row.event_count, row.error_count),
            (5, 2, 1)
        );
        assert!(row.has_errors && !row.has_feedback);
        assert_eq!(row.first_event_at, Some(T0 + 10));
        assert_eq!(row.first_url.as_deref(), Some("https://m.example/"));

        // A second push: same error group, counters add up.
        assert!(s
            .obs_store_push(&push(first.id, 50, T0 + 8_000))
            .await
            .unwrap());
        let groups = s.obs_error_groups(10, 0).await.unwrap();
        assert_eq!(groups.len(), 1);
        assert_eq!(
            (groups[0].occurrences, groups[0].sessions, groups[0].members),
            (2, 1, 0)
        );
        assert_eq!(groups[0].first_seen, T0 + 6_000);
        assert_eq!(groups[0].last_seen, T0 + 8_000);
        assert!(s
            .obs_bind_session(first.id, "42", "{\"nickname\":\"개미\"}")
            .await
            .unwrap());
        let g = s.obs_error_group(groups[0].id).await.unwrap().unwrap();
        assert_eq!(g.members, 1);
        let occ = s.obs_error_occurrences(g.id, 10).await.unwrap();
        assert_eq!(occ.len(), 2);
        assert_eq!(occ[0].session_secure_id, "s1");
        assert_eq!(occ[0].user_identifier.as_deref(), Some("42"));

        let chunks = s.obs_replay_chunks(first.id, None, 100).await.unwrap();
        let ids: Vec<i64> = chunks.iter().map(|c| c.payload_id).collect();
        assert_eq!(ids, [50, 100], "by payload id");
        assert_eq!(chunks[0].data, vec![0x1f, 0x8b, 1, 2, 3], "bytes as given");
        assert_eq!(s.obs_replay_chunk_count(first.id).await.unwrap(), 2);
        // Paged: one chunk at a time, each page after the last one's payload id.
        let page = s.obs_replay_chunks(first.id, None, 1).await.unwrap();
        assert_eq!(page.iter().map(|c| c.payload_id).collect::<Vec<_>>(), [50]);
        let page = s.obs_replay_chunks(first.id, Some(50), 1).await.unwrap();
        assert_eq!(page.iter().map(|c| c.payload_id).collect::<Vec<_>>(), [100]);
        assert!(s
            .obs_replay_chunks(first.id, Some(100), 1)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(s.obs_timeline(first.id, 10).await.unwrap().len(), 2);
        assert_eq!(s.obs_console(first.id, 1).await.unwrap().len(), 1, "limit");
        assert_eq!(
            s.obs_resources(first.id, 10).await.unwrap()[0].duration_ms,
            Some(12.5)
        );
        assert_eq!(s.obs_session_errors(first.id, 10).await.unwrap().len(), 2);
    }
}

/// A session belongs to the first member bound to it: that member may bind it again
/// (a new nickname), another may not, also when both try at once.
#[tokio::test]
async fn a_session_is_bound_to_the_first_member_only() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let s = db.storage().await;
        let row = s.obs_upsert_session(&session("s1", T0)).await.unwrap();
        assert!(s
            .obs_bind_session(row.id, "7", r#"{"nickname":"개미"}"#)
            .await
            .unwrap());
        assert!(s
            .obs_bind_session(row.id, "7", r#"{"nickname":"큰개미"}"#)
            .await
            .unwrap());
        assert!(!s
            .obs_bind_session(row.id, "8", r#"{"nickname":"황소"}"#)
            .await
            .unwrap());
        let row = s.obs_session("s1").await.unwrap().unwrap();
        assert_eq!(row.user_identifier.as_deref(), Some("7"), "{backend:?}");
        assert_eq!(row.user_object.as_deref(), Some(r#"{"nickname":"큰개미"}"#));

        // Members racing for one unbound session: exactly one wins.
        let racy = s.obs_upsert_session(&session("s2", T0)).await.unwrap();
        let tasks: Vec<_> = (0..16)
            .map(|i| {
                let s = s.clone();
                tokio::spawn(async move {
                    s.obs_bind_session(racy.id, &i.to_string(), "{}")
                        .await
                        .unwrap()
                })
            })
            .collect();
        let mut won = 0;
        for t in tasks {
            won += usize::from(t.await.unwrap());
        }
        assert_eq!(won, 1, "{backend:?}");
    }
}

#[tokio::test]
async fn session_filters_and_pages() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        for i in 0..5 {
            let row = s
                .obs_upsert_session(&NewObsSession {
                    environment: if i % 2 == 0 {
                        "production"
                    } else {
                        "development"
                    }
                    .into(),
                    ..session(&format!("s{i}"), T0 + i * 1000)
                })
                .await
                .unwrap();
            if i == 3 {
                assert!(s.obs_bind_session(row.id, "member-3", "{}").await.unwrap());
                s.obs_add_feedback(&NewFeedback {
                    session_id: row.id,
                    user_name: Some("개미".into()),
                    user_email: None,
                    verbatim: "좋아요".into(),
                    ts: T0,
                })
                .await
                .unwrap();
            }
        }
        let all = ObsSessionFilter {
            limit: 10,
            ..Default::default()
        };
        let ids: Vec<String> = s
            .obs_list_sessions(&all)
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.secure_id)
            .collect();
        assert_eq!(
            ids,
            ["s4", "s3", "s2", "s1", "s0"],
            "{:?}: newest first",
            db.backend
        );
        let page = s
            .obs_list_sessions(&ObsSessionFilter {
                limit: 2,
                ..Default::default()
            })
            .await
            .unwrap();
        let next = s
            .obs_list_sessions(&ObsSessionFilter {
                limit: 2,
                before_id: Some(page[1].id),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(next[0].secure_id, "s2");
        let pick = |f: ObsSessionFilter| {
            let s = s.clone();
            async move {
                s.obs_list_sessions(&ObsSessionFilter { limit: 10, ..f })
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|r| r.secure_id)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(
            pick(ObsSessionFilter {
                member: Some("member-3".into()),
                ..Default::default()
            })
            .await,
            ["s3"]
        );
        assert_eq!(
            pick(ObsSessionFilter {
                has_feedback: Some(true),
                ..Default::default()
            })
            .await,
            ["s3"]
        );
        assert_eq!(
            pick(ObsSessionFilter {
                has_errors: Some(true),
                ..Default::default()
            })
            .await,
            Vec::<String>::new()
        );
        assert_eq!(
            pick(ObsSessionFilter {
                environment: Some("development".into()),
                ..Default::default()
            })
            .await,
            ["s3", "s1"]
        );
        assert_eq!(
            pick(ObsSessionFilter {
                from_ms: Some(T0 + 1000),
                to_ms: Some(T0 + 3000),
                ..Default::default()
            })
            .await,
            ["s2", "s1"]
        );
        let feedback = s.obs_feedback(10, None).await.unwrap();
        assert_eq!(feedback[0].session_secure_id, "s3");
        assert_eq!(feedback[0].user_identifier.as_deref(), Some("member-3"));
        assert!(s
            .obs_feedback(10, Some(feedback[0].id))
            .await
            .unwrap()
            .is_empty());
    }
}

#[tokio::test]
async fn metrics_and_spans_round_trip() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let metric = |name: &str, value: f64, category: &str, ts: i64| NewMetric {
            session_secure_id: None,
            name: name.into(),
            value,
            category: category.into(),
            page: "/p".into(),
            ts,
            tags: None,
            source: "otlp".into(),
        };
        s.obs_add_metrics(&[
            metric("LCP", 2000.5, "WebVital", T0),
            metric("LCP", 3000.0, "WebVital", T0 + 10),
            metric("clicks", 3.0, "", T0),
        ])
        .await
        .unwrap();
        let points = s
            .obs_metric_values("WebVital", T0, T0 + 100, 10)
            .await
            .unwrap();
        assert_eq!(points.len(), 2, "{:?}", db.backend);
        assert_eq!(points[1].value, 2000.5);
        assert!(s
            .obs_metric_values("WebVital", T0 + 11, T0 + 100, 10)
            .await
            .unwrap()
            .is_empty());

        let trace = "0af7651916cd43dd8448eb211c80319c";
        let start = T0 * 1_000_000;
        let added = s
            .obs_add_spans(&[
                span(trace, "00000000000000b2", start + 5),
                span(trace, "00000000000000b1", start),
            ])
            .await
            .unwrap();
        assert_eq!(added, 2);
        let again = s
            .obs_add_spans(&[span(trace, "00000000000000b1", start)])
            .await
            .unwrap();
        assert_eq!(again, 0, "the same span is stored once");
        let spans = s.obs_trace_spans(trace).await.unwrap();
        assert_eq!(
            spans.iter().map(|s| s.span_id.as_str()).collect::<Vec<_>>(),
            ["00000000000000b1", "00000000000000b2"]
        );
        assert_eq!(spans[0], span(trace, "00000000000000b1", start));
    }
}

#[tokio::test]
async fn purging_deletes_old_rows_in_batches_and_keeps_new_ones() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let old = s.obs_upsert_session(&session("old", T0)).await.unwrap();
        let new = s
            .obs_upsert_session(&session("new", T0 + 100_000))
            .await
            .unwrap();
        for p in 0..3 {
            s.obs_store_push(&push(old.id, p, T0 + p)).await.unwrap();
        }
        s.obs_store_push(&push(new.id, 1, T0 + 100_000))
            .await
            .unwrap();
        s.obs_add_feedback(&NewFeedback {
            session_id: old.id,
            user_name: None,
            user_email: None,
            verbatim: "x".into(),
            ts: T0,
        })
        .await
        .unwrap();
        s.obs_add_spans(&[span(
            "0af7651916cd43dd8448eb211c80319c",
            "00000000000000b1",
            T0 * 1_000_000,
        )])
        .await
        .unwrap();
        let before = s.obs_counts().await.unwrap();
        let cutoff = T0 + 50_000;
        // Batches of 2: the old session's 3 chunks take two batches.
        assert_eq!(s.obs_purge_batch(cutoff, 2).await.unwrap(), 2);
        assert_eq!(s.obs_purge_batch(cutoff, 2).await.unwrap(), 1);
        let mut total = 3;
        loop {
            let n = s.obs_purge_batch(cutoff, 2).await.unwrap();
            if n == 0 {
                break;
            }
            total += n;
        }
        let after = s.obs_counts().await.unwrap();
        assert_eq!(
            before.sessions + before.data_rows() - total as i64,
            after.sessions + after.data_rows()
        );
        assert!(
            s.obs_session("old").await.unwrap().is_none(),
            "{:?}",
            db.backend
        );
        assert!(s.obs_session("new").await.unwrap().is_some());
        assert_eq!(after.replay_chunks, 1);
        assert_eq!(after.spans, 0);
        assert_eq!(after.feedback, 0);
        // The error group was last seen by the new session's push: kept.
        assert_eq!((after.error_groups, after.error_occurrences), (1, 1));
    }
}

#[allow(dead_code)]
fn assert_storage_is_object_safe(_: &dyn Storage) {}
