//! Portfolio storage, run against every backend (SQLite always, PostgreSQL when
//! `MOAT_TEST_POSTGRES_URL` is set), each test on a fresh database.

use chrono::{NaiveDate, TimeZone, Utc};
use moat_market::InstrumentId;
use moat_storage::{
    testing::TestDatabase, Backend, NewPortfolio, NewTransaction, NewUser, OrderableCash,
    PortfolioUpdate, Storage, StorageError, TransactionRow, MAX_PORTFOLIOS,
    MAX_TRANSACTIONS_PER_PORTFOLIO,
};
use rust_decimal::Decimal;
use uuid::Uuid;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn instrument(s: &str) -> InstrumentId {
    s.parse().unwrap()
}

async fn member(s: &dyn Storage, nickname: &str) -> i64 {
    s.create_user(&NewUser {
        chat_user_id: Uuid::new_v4(),
        email: Some(format!("{nickname}@x.io")),
        nickname: nickname.into(),
        nickname_folded: nickname.to_lowercase(),
        password_hash: None,
        identity: None,
        created_at: Utc::now(),
    })
    .await
    .unwrap()
    .id
}

fn new_portfolio(name: &str) -> NewPortfolio {
    NewPortfolio {
        name: name.into(),
        base_currency: "KRW".into(),
        cost_method: "moving_average".into(),
        broker: Some("키움증권".into()),
    }
}

fn buy(date: NaiveDate, id: &str, quantity: &str, price: &str, currency: &str) -> NewTransaction {
    NewTransaction {
        instrument_id: Some(instrument(id)),
        quantity: dec(quantity),
        price: dec(price),
        ..NewTransaction::new("buy", date, currency)
    }
}

/// Rows in a table, read past the storage API (to see orphans it would hide).
async fn count_rows(db: &TestDatabase, table: &str) -> i64 {
    let sql = format!("SELECT COUNT(*) FROM {table}");
    match db.backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
            sqlx::query_scalar(&sql).fetch_one(&pool).await.unwrap()
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
            sqlx::query_scalar(&sql).fetch_one(&pool).await.unwrap()
        }
    }
}

/// Decimals with their scale, which `Decimal`'s equality ignores.
fn exact(row: &TransactionRow) -> [String; 4] {
    [
        row.quantity.to_string(),
        row.price.to_string(),
        row.fee.to_string(),
        row.tax.to_string(),
    ]
}

#[tokio::test]
async fn portfolios_are_created_listed_updated_reordered_and_deleted() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let u = member(s.as_ref(), "ant").await;

        assert_eq!(s.portfolio_count(u).await.unwrap(), 0);
        let first = s.create_portfolio(u, &new_portfolio("연금")).await.unwrap();
        let second = s
            .create_portfolio(
                u,
                &NewPortfolio {
                    name: "US growth".into(),
                    base_currency: "USD".into(),
                    cost_method: "fifo".into(),
                    broker: None,
                },
            )
            .await
            .unwrap();
        let third = s.create_portfolio(u, &new_portfolio("ISA")).await.unwrap();
        assert_eq!(
            [first.position, second.position, third.position],
            [0, 1, 2],
            "{b:?}: each goes last"
        );
        assert_eq!(first.user_id, u);
        assert_eq!(first.broker.as_deref(), Some("키움증권"));
        assert_eq!(second.base_currency, "USD");
        assert_eq!(second.cost_method, "fifo");
        assert_eq!(first.orderable_cash, None);
        assert_eq!(s.portfolio_count(u).await.unwrap(), 3);

        let listed = s.list_portfolios(u).await.unwrap();
        assert_eq!(
            listed,
            vec![first.clone(), second.clone(), third.clone()],
            "{b:?}"
        );
        assert_eq!(
            s.portfolio(u, second.id).await.unwrap(),
            Some(second.clone())
        );
        assert_eq!(s.portfolio(u, third.id + 1000).await.unwrap(), None);

        // A partial update changes only what it names; Some(None) clears the broker.
        let updated = s
            .update_portfolio(
                u,
                first.id,
                &PortfolioUpdate {
                    name: Some("연금저축".into()),
                    cost_method: Some("fifo".into()),
                    broker: Some(None),
                    ..PortfolioUpdate::default()
                },
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(updated.name, "연금저축");
        assert_eq!(updated.cost_method, "fifo");
        assert_eq!(updated.base_currency, "KRW", "{b:?}: untouched");
        assert_eq!(updated.broker, None);
        assert_eq!(updated.created_at, first.created_at);
        assert!(updated.updated_at >= first.updated_at);
        let unchanged = s
            .update_portfolio(u, first.id, &PortfolioUpdate::default())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (unchanged.name, unchanged.broker),
            ("연금저축".to_owned(), None)
        );
        let rebrokered = s
            .update_portfolio(
                u,
                first.id,
                &PortfolioUpdate {
                    broker: Some(Some("Toss".into())),
                    ..PortfolioUpdate::default()
                },
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(rebrokered.broker.as_deref(), Some("Toss"));
        assert_eq!(
            s.update_portfolio(u, third.id + 1000, &PortfolioUpdate::default())
                .await
                .unwrap(),
            None
        );

        // The schema backs up the server's validation.
        for (update, what) in [
            (
                PortfolioUpdate {
                    base_currency: Some("EUR".into()),
                    ..PortfolioUpdate::default()
                },
                "base currency",
            ),
            (
                PortfolioUpdate {
                    cost_method: Some("lifo".into()),
                    ..PortfolioUpdate::default()
                },
                "cost method",
            ),
            (
                PortfolioUpdate {
                    name: Some("가".repeat(61)),
                    ..PortfolioUpdate::default()
                },
                "name",
            ),
            (
                PortfolioUpdate {
                    name: Some(String::new()),
                    ..PortfolioUpdate::default()
                },
                "name",
            ),
        ] {
            match s.update_portfolio(u, first.id, &update).await {
                Err(StorageError::Invalid(m)) => assert!(m.contains(what), "{b:?}: {m}"),
                other => panic!("{b:?}: expected Invalid({what}), got {other:?}"),
            }
        }
        assert!(matches!(
            s.create_portfolio(u, &new_portfolio(&"x".repeat(61))).await,
            Err(StorageError::Invalid(_))
        ));
        let sixty = s
            .create_portfolio(u, &new_portfolio(&"가".repeat(60)))
            .await
            .unwrap();
        assert!(s.delete_portfolio(u, sixty.id).await.unwrap());

        // Reordering needs exactly the member's portfolios.
        s.reorder_portfolios(u, &[third.id, first.id, second.id])
            .await
            .unwrap();
        let order = |list: Vec<moat_storage::PortfolioRow>| {
            list.into_iter().map(|p| p.id).collect::<Vec<_>>()
        };
        assert_eq!(
            order(s.list_portfolios(u).await.unwrap()),
            vec![third.id, first.id, second.id],
            "{b:?}"
        );
        for bad in [
            vec![third.id, first.id],
            vec![third.id, first.id, second.id, second.id],
            vec![third.id, first.id, first.id],
            vec![third.id, first.id, second.id + 1000],
        ] {
            assert!(
                matches!(
                    s.reorder_portfolios(u, &bad).await,
                    Err(StorageError::Invalid(_))
                ),
                "{b:?}: {bad:?}"
            );
        }
        assert_eq!(
            order(s.list_portfolios(u).await.unwrap()),
            vec![third.id, first.id, second.id],
            "{b:?}: a refused order changes nothing"
        );

        // Orderable cash: exact, and cleared as a whole.
        let at = Utc.with_ymd_and_hms(2025, 6, 10, 6, 30, 0).unwrap();
        let cash = OrderableCash {
            amount: dec("1234567.50"),
            currency: "KRW".into(),
            updated_at: at,
        };
        let with_cash = s
            .set_orderable_cash(u, second.id, Some(&cash))
            .await
            .unwrap()
            .unwrap();
        let got = with_cash.orderable_cash.clone().unwrap();
        assert_eq!(got, cash, "{b:?}");
        assert_eq!(got.amount.to_string(), "1234567.50");
        assert_eq!(s.portfolio(u, second.id).await.unwrap().unwrap(), with_cash);
        let cleared = s
            .set_orderable_cash(u, second.id, None)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(cleared.orderable_cash, None);
        assert_eq!(
            s.set_orderable_cash(u, second.id + 1000, Some(&cash))
                .await
                .unwrap(),
            None
        );

        // Deleting takes the portfolio and its transactions.
        s.add_transaction(
            u,
            first.id,
            &buy(d(2025, 1, 2), "KRX:005930", "10", "53400", "KRW"),
        )
        .await
        .unwrap()
        .unwrap();
        assert!(s.delete_portfolio(u, first.id).await.unwrap());
        assert!(!s.delete_portfolio(u, first.id).await.unwrap(), "{b:?}");
        assert_eq!(s.portfolio(u, first.id).await.unwrap(), None);
        assert!(matches!(
            s.transactions(u, first.id).await,
            Err(StorageError::NotFound)
        ));
        assert!(s.transactions_of_member(u).await.unwrap().is_empty());
        assert_eq!(
            order(s.list_portfolios(u).await.unwrap()),
            vec![third.id, second.id]
        );
        // A new one still goes last.
        let fourth = s.create_portfolio(u, &new_portfolio("new")).await.unwrap();
        assert_eq!(
            order(s.list_portfolios(u).await.unwrap()),
            vec![third.id, second.id, fourth.id],
            "{b:?}"
        );
    }
}

#[tokio::test]
async fn transactions_keep_exact_decimals_and_ledger_order() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let u = member(s.as_ref(), "ant").await;
        let kr = s.create_portfolio(u, &new_portfolio("KR")).await.unwrap();
        let us = s.create_portfolio(u, &new_portfolio("US")).await.unwrap();

        // Recorded out of date order.
        let mut fractional = buy(
            d(2025, 6, 10),
            "NASDAQ:AAPL",
            "0.00012345",
            "189.4300",
            "USD",
        );
        fractional.fee = dec("0.01");
        fractional.fx_rate = Some(dec("1365.20"));
        fractional.note = "소수점 매수 'quoted'".into();
        let later = s
            .add_transaction(u, us.id, &fractional)
            .await
            .unwrap()
            .unwrap();
        let mut samsung = buy(d(2025, 6, 9), "KRX:005930", "3", "71200", "KRW");
        samsung.tax = dec("0.00");
        let earlier = s
            .add_transaction(u, kr.id, &samsung)
            .await
            .unwrap()
            .unwrap();
        let deposit = NewTransaction {
            quantity: dec("1"),
            price: dec("5000000"),
            ..NewTransaction::new("deposit", d(2025, 6, 9), "KRW")
        };
        let same_day = s
            .add_transaction(u, kr.id, &deposit)
            .await
            .unwrap()
            .unwrap();
        let split = NewTransaction {
            instrument_id: Some(instrument("NASDAQ:AAPL")),
            split_numerator: Some(4),
            split_denominator: Some(1),
            ..NewTransaction::new("split", d(2025, 6, 11), "USD")
        };
        let split = s.add_transaction(u, us.id, &split).await.unwrap().unwrap();

        assert_eq!(later.portfolio_id, us.id);
        assert_eq!(later.kind, "buy");
        assert_eq!(later.instrument_id, Some(instrument("NASDAQ:AAPL")));
        assert_eq!(
            exact(&later),
            ["0.00012345", "189.4300", "0.01", "0"].map(String::from),
            "{b:?}: exact decimals, scale kept"
        );
        assert_eq!(later.fx_rate.unwrap().to_string(), "1365.20");
        assert_eq!(later.note, "소수점 매수 'quoted'");
        assert_eq!(later.import_fingerprint, None);
        assert_eq!(
            exact(&earlier),
            ["3", "71200", "0", "0.00"].map(String::from)
        );
        assert_eq!(earlier.fx_rate, None);
        assert_eq!(
            (split.split_numerator, split.split_denominator),
            (Some(4), Some(1))
        );

        let listed = s.transactions(u, kr.id).await.unwrap();
        assert_eq!(listed, vec![earlier.clone(), same_day.clone()], "{b:?}");
        let listed = s.transactions(u, us.id).await.unwrap();
        assert_eq!(listed, vec![later.clone(), split.clone()], "{b:?}");
        assert_eq!(exact(&listed[0]), exact(&later), "{b:?}: read back exact");

        // Across portfolios: by trade date, then id.
        let all = s.transactions_of_member(u).await.unwrap();
        assert_eq!(
            all.iter().map(|t| t.id).collect::<Vec<_>>(),
            vec![earlier.id, same_day.id, later.id, split.id],
            "{b:?}"
        );

        // An edit replaces the fields, moves the row in ledger order, keeps the id.
        let mut edited = fractional.clone();
        edited.trade_date = d(2025, 6, 1);
        edited.quantity = dec("0.5");
        edited.fx_rate = None;
        edited.note = String::new();
        let row = s
            .update_transaction(u, us.id, later.id, &edited)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.id, later.id);
        assert_eq!(row.trade_date, d(2025, 6, 1));
        assert_eq!(row.quantity.to_string(), "0.5");
        assert_eq!(row.price.to_string(), "189.4300");
        assert_eq!(row.fx_rate, None);
        assert_eq!(row.created_at, later.created_at);
        assert_eq!(
            s.transactions_of_member(u)
                .await
                .unwrap()
                .iter()
                .map(|t| t.id)
                .collect::<Vec<_>>(),
            vec![later.id, earlier.id, same_day.id, split.id],
            "{b:?}"
        );
        // The transaction must be in the portfolio named.
        assert_eq!(
            s.update_transaction(u, kr.id, later.id, &edited)
                .await
                .unwrap(),
            None,
            "{b:?}"
        );
        assert_eq!(
            s.update_transaction(u, us.id, split.id + 1000, &edited)
                .await
                .unwrap(),
            None
        );
        // Schema checks come back as Invalid and change nothing.
        let mut bogus = edited.clone();
        bogus.kind = "short".into();
        assert!(matches!(
            s.update_transaction(u, us.id, later.id, &bogus).await,
            Err(StorageError::Invalid("unknown transaction kind"))
        ));
        let mut zero_split = edited.clone();
        zero_split.split_numerator = Some(0);
        zero_split.split_denominator = Some(1);
        assert!(matches!(
            s.add_transaction(u, us.id, &zero_split).await,
            Err(StorageError::Invalid(_))
        ));
        let mut half_split = edited.clone();
        half_split.split_numerator = Some(2);
        assert!(matches!(
            s.add_transaction(u, us.id, &half_split).await,
            Err(StorageError::Invalid(_))
        ));
        assert_eq!(s.transactions(u, us.id).await.unwrap()[0], row);
        assert_eq!(s.transactions(u, us.id).await.unwrap().len(), 2);

        // Transactions bump the portfolio's updated_at.
        assert!(s.portfolio(u, us.id).await.unwrap().unwrap().updated_at >= row.updated_at);

        assert!(!s.delete_transaction(u, kr.id, later.id).await.unwrap());
        assert!(s.delete_transaction(u, us.id, later.id).await.unwrap());
        assert!(!s.delete_transaction(u, us.id, later.id).await.unwrap());
        assert_eq!(s.transactions(u, us.id).await.unwrap(), vec![split]);
        assert!(matches!(
            s.transactions(u, us.id + 1000).await,
            Err(StorageError::NotFound)
        ));
        assert_eq!(
            s.add_transaction(u, us.id + 1000, &edited).await.unwrap(),
            None
        );
    }
}

fn imported(i: usize) -> NewTransaction {
    NewTransaction {
        import_fingerprint: Some(format!("fp-{}", i % 600)),
        note: format!("row {i}"),
        ..buy(
            d(2024, 1, 1) + chrono::Days::new((i % 365) as u64),
            "KRX:005930",
            "1",
            "71200.5",
            "KRW",
        )
    }
}

#[tokio::test]
async fn an_import_is_all_or_nothing() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let u = member(s.as_ref(), "ant").await;
        let p = s.create_portfolio(u, &new_portfolio("KR")).await.unwrap();
        let before = s
            .add_transaction(
                u,
                p.id,
                &buy(d(2023, 1, 2), "KRX:000660", "2", "120000", "KRW"),
            )
            .await
            .unwrap()
            .unwrap();

        // A bad row in the second chunk (after 500 rows went in) undoes the whole import.
        let mut rows: Vec<NewTransaction> = (0..700).map(imported).collect();
        rows[650].kind = "bogus".into();
        assert!(
            matches!(
                s.import_transactions(u, p.id, &rows).await,
                Err(StorageError::Invalid("unknown transaction kind"))
            ),
            "{b:?}"
        );
        rows[650] = imported(650);
        rows[699].split_numerator = Some(0);
        rows[699].split_denominator = Some(2);
        assert!(matches!(
            s.import_transactions(u, p.id, &rows).await,
            Err(StorageError::Invalid(_))
        ));
        assert_eq!(
            s.transactions(u, p.id).await.unwrap(),
            vec![before.clone()],
            "{b:?}: nothing imported"
        );
        assert!(s.import_fingerprints(u, p.id).await.unwrap().is_empty());

        rows[699] = imported(699);
        assert_eq!(s.import_transactions(u, p.id, &rows).await.unwrap(), 700);
        let got = s.transactions(u, p.id).await.unwrap();
        assert_eq!(got.len(), 701, "{b:?}");
        assert_eq!(got[0], before);
        assert!(got
            .windows(2)
            .all(|w| (w[0].trade_date, w[0].id) < (w[1].trade_date, w[1].id)));
        assert!(got[1..].iter().all(|t| t.price.to_string() == "71200.5"));
        let fingerprints = s.import_fingerprints(u, p.id).await.unwrap();
        assert_eq!(fingerprints.len(), 600, "{b:?}: distinct");
        assert!(fingerprints.contains(&"fp-599".to_owned()));
        // File order is id order: a day's rows keep the file's order.
        let day_one: Vec<&str> = got
            .iter()
            .filter(|t| t.trade_date == d(2024, 1, 1))
            .map(|t| t.note.as_str())
            .collect();
        assert_eq!(day_one, vec!["row 0", "row 365"]);

        // An edit keeps the fingerprint.
        let mut edit = imported(3);
        edit.import_fingerprint = None;
        edit.note = "edited".into();
        let edited = s
            .update_transaction(u, p.id, got[4].id, &edit)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(edited.import_fingerprint, got[4].import_fingerprint);

        assert_eq!(s.import_transactions(u, p.id, &[]).await.unwrap(), 0);
    }
}

#[tokio::test]
async fn caps_are_enforced_and_change_nothing() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let u = member(s.as_ref(), "ant").await;
        for i in 0..MAX_PORTFOLIOS {
            s.create_portfolio(u, &new_portfolio(&format!("p{i}")))
                .await
                .unwrap();
        }
        assert!(
            matches!(
                s.create_portfolio(u, &new_portfolio("one too many")).await,
                Err(StorageError::LimitReached("portfolios"))
            ),
            "{b:?}"
        );
        assert_eq!(s.portfolio_count(u).await.unwrap(), MAX_PORTFOLIOS as i64);
        // Another member has their own allowance.
        let other = member(s.as_ref(), "bee").await;
        s.create_portfolio(other, &new_portfolio("mine"))
            .await
            .unwrap();

        let p = s.list_portfolios(u).await.unwrap()[0].id;
        let rows: Vec<NewTransaction> = (0..MAX_TRANSACTIONS_PER_PORTFOLIO - 1)
            .map(|i| NewTransaction {
                import_fingerprint: None,
                ..imported(i)
            })
            .collect();
        // One row past the cap: refused before anything is written.
        let mut too_many = rows.clone();
        too_many.push(imported(0));
        too_many.push(imported(1));
        assert!(matches!(
            s.import_transactions(u, p, &too_many).await,
            Err(StorageError::LimitReached("transactions"))
        ));
        assert!(s.transactions(u, p).await.unwrap().is_empty(), "{b:?}");

        assert_eq!(
            s.import_transactions(u, p, &rows).await.unwrap(),
            rows.len() as u64
        );
        let last = s
            .add_transaction(u, p, &imported(7))
            .await
            .unwrap()
            .unwrap();
        assert!(matches!(
            s.add_transaction(u, p, &imported(8)).await,
            Err(StorageError::LimitReached("transactions"))
        ));
        assert!(matches!(
            s.import_transactions(u, p, &[imported(9)]).await,
            Err(StorageError::LimitReached("transactions"))
        ));
        let stored = s.transactions(u, p).await.unwrap();
        assert_eq!(stored.len(), MAX_TRANSACTIONS_PER_PORTFOLIO, "{b:?}");
        // Room again after a delete.
        assert!(s.delete_transaction(u, p, last.id).await.unwrap());
        s.add_transaction(u, p, &imported(10))
            .await
            .unwrap()
            .unwrap();
    }
}

#[tokio::test]
async fn a_member_cannot_reach_another_members_portfolios() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let alice = member(s.as_ref(), "alice").await;
        let bob = member(s.as_ref(), "bob").await;
        let a1 = s
            .create_portfolio(alice, &new_portfolio("A1"))
            .await
            .unwrap();
        let a2 = s
            .create_portfolio(alice, &new_portfolio("A2"))
            .await
            .unwrap();
        let mut fingerprinted = buy(d(2025, 6, 9), "KRX:005930", "3", "71200", "KRW");
        fingerprinted.import_fingerprint = Some("alice-row".into());
        s.import_transactions(alice, a1.id, &[fingerprinted])
            .await
            .unwrap();
        let a_tx = s.transactions(alice, a1.id).await.unwrap()[0].clone();
        s.set_orderable_cash(
            alice,
            a1.id,
            Some(&OrderableCash {
                amount: dec("100.25"),
                currency: "KRW".into(),
                updated_at: Utc::now(),
            }),
        )
        .await
        .unwrap()
        .unwrap();
        let b1 = s.create_portfolio(bob, &new_portfolio("B1")).await.unwrap();

        let alice_portfolios = s.list_portfolios(alice).await.unwrap();
        let alice_txs = s.transactions_of_member(alice).await.unwrap();

        // Reads.
        assert_eq!(s.portfolio(bob, a1.id).await.unwrap(), None, "{b:?}");
        assert_eq!(s.list_portfolios(bob).await.unwrap(), vec![b1.clone()]);
        assert_eq!(s.portfolio_count(bob).await.unwrap(), 1);
        assert!(matches!(
            s.transactions(bob, a1.id).await,
            Err(StorageError::NotFound)
        ));
        assert!(s.transactions_of_member(bob).await.unwrap().is_empty());
        assert!(matches!(
            s.import_fingerprints(bob, a1.id).await,
            Err(StorageError::NotFound)
        ));

        // Changes to Alice's portfolios.
        let rename = PortfolioUpdate {
            name: Some("mine now".into()),
            ..PortfolioUpdate::default()
        };
        assert_eq!(s.update_portfolio(bob, a1.id, &rename).await.unwrap(), None);
        assert_eq!(s.set_orderable_cash(bob, a1.id, None).await.unwrap(), None);
        assert!(!s.delete_portfolio(bob, a2.id).await.unwrap());
        for order in [
            vec![a1.id, a2.id],
            vec![b1.id, a1.id],
            vec![a2.id, b1.id, a1.id],
        ] {
            assert!(
                matches!(
                    s.reorder_portfolios(bob, &order).await,
                    Err(StorageError::Invalid(_))
                ),
                "{b:?}: {order:?}"
            );
        }
        s.reorder_portfolios(bob, &[b1.id]).await.unwrap();

        // Changes to Alice's transactions, through her portfolio or through Bob's.
        let new = buy(d(2025, 6, 10), "KRX:005930", "1", "1", "KRW");
        assert_eq!(s.add_transaction(bob, a1.id, &new).await.unwrap(), None);
        assert!(matches!(
            s.import_transactions(bob, a1.id, std::slice::from_ref(&new))
                .await,
            Err(StorageError::NotFound)
        ));
        for portfolio in [a1.id, b1.id] {
            assert_eq!(
                s.update_transaction(bob, portfolio, a_tx.id, &new)
                    .await
                    .unwrap(),
                None,
                "{b:?}"
            );
            assert!(!s.delete_transaction(bob, portfolio, a_tx.id).await.unwrap());
        }
        // Alice's own id pair, used by Alice against Bob's portfolio, fails too.
        assert_eq!(s.add_transaction(alice, b1.id, &new).await.unwrap(), None);

        // Alice's data is exactly as it was (updated_at included).
        assert_eq!(
            s.list_portfolios(alice).await.unwrap(),
            alice_portfolios,
            "{b:?}"
        );
        assert_eq!(s.transactions_of_member(alice).await.unwrap(), alice_txs);
        assert_eq!(
            s.import_fingerprints(alice, a1.id).await.unwrap(),
            vec!["alice-row".to_owned()]
        );
        assert!(s.transactions(bob, b1.id).await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn deleting_a_member_deletes_their_portfolios_and_transactions() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let alice = member(s.as_ref(), "alice").await;
        let bob = member(s.as_ref(), "bob").await;
        for (u, name) in [(alice, "A"), (alice, "A2"), (bob, "B")] {
            let p = s.create_portfolio(u, &new_portfolio(name)).await.unwrap();
            s.add_transaction(
                u,
                p.id,
                &buy(d(2025, 6, 9), "KRX:005930", "3", "71200", "KRW"),
            )
            .await
            .unwrap()
            .unwrap();
        }
        let bob_before = (
            s.list_portfolios(bob).await.unwrap(),
            s.transactions_of_member(bob).await.unwrap(),
        );

        assert_eq!(count_rows(&db, "transactions").await, 3);
        s.delete_user(alice, Utc::now()).await.unwrap();
        assert_eq!(count_rows(&db, "portfolios").await, 1, "{b:?}");
        assert_eq!(count_rows(&db, "transactions").await, 1, "{b:?}");
        assert!(s.list_portfolios(alice).await.unwrap().is_empty(), "{b:?}");
        assert_eq!(s.portfolio_count(alice).await.unwrap(), 0);
        assert!(s.transactions_of_member(alice).await.unwrap().is_empty());
        assert!(
            matches!(
                s.create_portfolio(alice, &new_portfolio("again")).await,
                Err(StorageError::NotFound)
            ),
            "{b:?}: a deleted member gets no new portfolio"
        );
        assert!(matches!(
            s.create_portfolio(bob + 1000, &new_portfolio("nobody"))
                .await,
            Err(StorageError::NotFound)
        ));
        assert_eq!(
            (
                s.list_portfolios(bob).await.unwrap(),
                s.transactions_of_member(bob).await.unwrap()
            ),
            bob_before,
            "{b:?}: others keep theirs"
        );
    }
}

#[tokio::test]
async fn concurrent_writers_respect_the_cap_and_positions() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let u = member(s.as_ref(), "ant").await;
        let mut tasks = Vec::new();
        for i in 0..MAX_PORTFOLIOS + 5 {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                s.create_portfolio(u, &new_portfolio(&format!("p{i}")))
                    .await
            }));
        }
        let (mut created, mut refused) = (0, 0);
        for t in tasks {
            match t.await.unwrap() {
                Ok(_) => created += 1,
                Err(StorageError::LimitReached("portfolios")) => refused += 1,
                Err(e) => panic!("{b:?}: {e:?}"),
            }
        }
        assert_eq!((created, refused), (MAX_PORTFOLIOS, 5), "{b:?}");
        let positions: Vec<i64> = s
            .list_portfolios(u)
            .await
            .unwrap()
            .iter()
            .map(|p| p.position)
            .collect();
        assert_eq!(
            positions,
            (0..MAX_PORTFOLIOS as i64).collect::<Vec<_>>(),
            "{b:?}"
        );

        let p = s.list_portfolios(u).await.unwrap()[0].id;
        let mut tasks = Vec::new();
        for i in 0..16 {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                if i % 2 == 0 {
                    s.add_transaction(u, p, &imported(i)).await.map(|_| 1)
                } else {
                    s.import_transactions(u, p, &[imported(i), imported(i + 100)])
                        .await
                }
            }));
        }
        let mut written = 0;
        for t in tasks {
            written += t.await.unwrap().unwrap();
        }
        assert_eq!(written, 24);
        assert_eq!(s.transactions(u, p).await.unwrap().len(), 24, "{b:?}");
    }
}

/// Shares held of `id` in a ledger, summed from its buys and sells.
fn held(rows: &[TransactionRow], id: &str) -> Decimal {
    rows.iter()
        .filter(|r| r.instrument_id.as_ref().map(ToString::to_string).as_deref() == Some(id))
        .map(|r| match r.kind.as_str() {
            "buy" => r.quantity,
            "sell" => -r.quantity,
            _ => Decimal::ZERO,
        })
        .sum()
}

/// Twenty writers each check the shares held and sell all ten if they are there, all
/// at once: with the check made through the locked ledger only one of them sells.
#[tokio::test]
async fn a_check_made_through_the_locked_ledger_cannot_be_raced() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let user = member(&*s, "racer").await;
        let p = s.create_portfolio(user, &new_portfolio("p")).await.unwrap();
        s.add_transaction(
            user,
            p.id,
            &buy(d(2024, 1, 2), "KRX:005930", "10", "70000", "KRW"),
        )
        .await
        .unwrap()
        .unwrap();
        let mut tasks = Vec::new();
        for _ in 0..20 {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                let mut ledger = s.lock_ledger(user, p.id).await.unwrap().unwrap();
                let rows = ledger.transactions().await.unwrap();
                if held(&rows, "KRX:005930") < dec("10") {
                    return false;
                }
                let sell = NewTransaction {
                    kind: "sell".into(),
                    ..buy(d(2024, 1, 3), "KRX:005930", "10", "71000", "KRW")
                };
                ledger.add(&sell).await.unwrap();
                ledger.commit().await.unwrap();
                true
            }));
        }
        let mut sold = 0;
        for t in tasks {
            sold += usize::from(t.await.unwrap());
        }
        assert_eq!(sold, 1, "{:?}: one sell went through", db.backend);
        let rows = s.transactions(user, p.id).await.unwrap();
        assert_eq!(held(&rows, "KRX:005930"), Decimal::ZERO, "{:?}", db.backend);
        assert_eq!(rows.len(), 2, "{:?}", db.backend);
    }
}

/// A second writer of a portfolio waits for the first to commit and then sees its
/// write; in PostgreSQL a writer of another portfolio does not wait (SQLite has one
/// writer at a time for the whole database).
#[tokio::test]
async fn a_second_writer_waits_for_the_first() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let user = member(&*s, "waiter").await;
        let a = s.create_portfolio(user, &new_portfolio("a")).await.unwrap();
        let b = s.create_portfolio(user, &new_portfolio("b")).await.unwrap();
        let mut first = s.lock_ledger(user, a.id).await.unwrap().unwrap();
        first
            .add(&buy(d(2024, 1, 2), "KRX:005930", "1", "70000", "KRW"))
            .await
            .unwrap();
        if db.backend == Backend::Postgres {
            // Another portfolio is not held up.
            let other = s.lock_ledger(user, b.id).await.unwrap().unwrap();
            drop(other);
        }
        let s2 = s.clone();
        let second = tokio::spawn(async move {
            let mut ledger = s2.lock_ledger(user, a.id).await.unwrap().unwrap();
            ledger.transactions().await.unwrap().len()
        });
        // Still waiting while the first holds the lock (a bounded wait for something
        // that must not happen).
        tokio::task::yield_now().await;
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(300), async {
                while !second.is_finished() {
                    tokio::task::yield_now().await;
                }
            })
            .await
            .is_err(),
            "{:?}: the second writer did not wait",
            db.backend
        );
        let committed = first.commit().await.unwrap();
        assert_eq!(committed.revision, a.revision + 1);
        assert_eq!(
            second.await.unwrap(),
            1,
            "{:?}: sees the first's write",
            db.backend
        );
    }
}

/// Every write adds one to the revision; a ledger dropped without committing changes
/// nothing, the revision included; settings changes count too.
#[tokio::test]
async fn every_write_bumps_the_revision_and_a_dropped_ledger_changes_nothing() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let user = member(&*s, "rev").await;
        let p = s.create_portfolio(user, &new_portfolio("p")).await.unwrap();
        assert_eq!(p.revision, 0);
        let rev = |s: std::sync::Arc<dyn Storage>| async move {
            s.portfolio(user, p.id).await.unwrap().unwrap().revision
        };
        let t = s
            .add_transaction(
                user,
                p.id,
                &buy(d(2024, 1, 2), "KRX:005930", "1", "70000", "KRW"),
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(rev(s.clone()).await, 1);
        let mut ledger = s.lock_ledger(user, p.id).await.unwrap().unwrap();
        ledger.delete(t.id).await.unwrap();
        drop(ledger);
        assert_eq!(rev(s.clone()).await, 1, "{:?}: rolled back", db.backend);
        assert_eq!(s.transactions(user, p.id).await.unwrap().len(), 1);
        s.update_portfolio(
            user,
            p.id,
            &PortfolioUpdate {
                cost_method: Some("fifo".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        assert_eq!(rev(s.clone()).await, 2);
        s.set_orderable_cash(user, p.id, None).await.unwrap();
        assert_eq!(rev(s.clone()).await, 3);
        assert!(s.delete_transaction(user, p.id, t.id).await.unwrap());
        assert_eq!(rev(s.clone()).await, 4);
        // Another member's portfolio cannot be locked.
        let other = member(&*s, "other").await;
        assert!(s.lock_ledger(other, p.id).await.unwrap().is_none());
    }
}

/// Stored answers to idempotent requests: found under the member's key while fresh,
/// a second one under the same key refused, an old one replaced and forgotten; another
/// member's key is another key; they go with the member.
#[tokio::test]
async fn idempotent_answers_are_kept_per_member_and_key() {
    use moat_storage::IdempotentResponse;
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let user = member(&*s, "idem").await;
        let other = member(&*s, "idem2").await;
        let p = s.create_portfolio(user, &new_portfolio("p")).await.unwrap();
        let q = s
            .create_portfolio(other, &new_portfolio("q"))
            .await
            .unwrap();
        let now = Utc::now();
        let day_ago = now - chrono::Duration::hours(24);
        let answer = |hash: &str, at| IdempotentResponse {
            request_hash: hash.into(),
            status: 201,
            body: "{\"id\":1}".into(),
            created_at: at,
        };
        let mut ledger = s.lock_ledger(user, p.id).await.unwrap().unwrap();
        assert_eq!(
            ledger.idempotent_response("k1", day_ago).await.unwrap(),
            None
        );
        ledger
            .remember_response("k1", &answer("h1", now), day_ago)
            .await
            .unwrap();
        // An old answer under another key, to be forgotten by the next store.
        ledger
            .remember_response(
                "old",
                &answer("h0", now - chrono::Duration::hours(30)),
                now - chrono::Duration::hours(48),
            )
            .await
            .unwrap();
        ledger.commit().await.unwrap();

        let mut ledger = s.lock_ledger(user, p.id).await.unwrap().unwrap();
        let found = ledger
            .idempotent_response("k1", day_ago)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (
                found.request_hash.as_str(),
                found.status,
                found.body.as_str()
            ),
            ("h1", 201, "{\"id\":1}"),
            "{:?}",
            db.backend
        );
        assert!(
            (found.created_at - now).num_milliseconds().abs() < 1,
            "{:?}",
            db.backend
        );
        // Not fresh enough for a later cut-off.
        assert_eq!(
            ledger
                .idempotent_response("k1", now + chrono::Duration::seconds(1))
                .await
                .unwrap(),
            None
        );
        assert!(matches!(
            ledger
                .remember_response("k1", &answer("h2", now), day_ago)
                .await,
            Err(StorageError::Conflict("idempotency_key"))
        ));
        drop(ledger);
        let mut ledger = s.lock_ledger(user, p.id).await.unwrap().unwrap();
        assert_eq!(
            ledger
                .idempotent_response("old", now - chrono::Duration::hours(48))
                .await
                .unwrap()
                .map(|a| a.request_hash),
            Some("h0".into())
        );
        ledger
            .remember_response("k2", &answer("h3", now), day_ago)
            .await
            .unwrap();
        assert_eq!(
            ledger
                .idempotent_response("old", now - chrono::Duration::hours(48))
                .await
                .unwrap(),
            None,
            "{:?}: forgotten",
            db.backend
        );
        ledger.commit().await.unwrap();
        // The other member's "k1" is theirs.
        let mut theirs = s.lock_ledger(other, q.id).await.unwrap().unwrap();
        assert_eq!(
            theirs.idempotent_response("k1", day_ago).await.unwrap(),
            None
        );
        theirs
            .remember_response("k1", &answer("h9", now), day_ago)
            .await
            .unwrap();
        theirs.commit().await.unwrap();
        assert_eq!(count_rows(&db, "idempotency_keys").await, 3);
        s.delete_user(user, Utc::now()).await.unwrap();
        assert_eq!(
            count_rows(&db, "idempotency_keys").await,
            1,
            "{:?}: gone with the member",
            db.backend
        );
    }
}
