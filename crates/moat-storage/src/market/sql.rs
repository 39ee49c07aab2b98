//! The SQL of [`MarketStorage`], one implementation for both backends.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Type};

use crate::market::MarketStorage;
use crate::sql::{Sql, SqlStorage};

#[async_trait::async_trait]
impl<DB: Sql> MarketStorage for SqlStorage<DB>
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
{
    async fn upsert_instruments(
        &self,
        instruments: &[moat_market::Instrument],
    ) -> Result<u64, crate::StorageError> {
        let _db = crate::probe::op("upsert_instruments");
        let now = chrono::Utc::now();
        let mut tx = self.pool.begin().await?;
        for chunk in instruments.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO instruments (id, exchange, symbol, kind, board, currency, country, name_ko, name_en, sector, shares_outstanding, reference_price, popularity, aliases, updated_at) ",
            );
            q.push_values(chunk, |mut b, i| {
                b.push_bind(i.id.to_string())
                    .push_bind(i.id.exchange().as_str())
                    .push_bind(i.id.symbol().to_owned())
                    .push_bind(i.kind.as_str())
                    .push_bind(i.board.map(|b| b.as_str()))
                    .push_bind(i.currency.clone())
                    .push_bind(i.country.clone())
                    .push_bind(i.name_ko.clone())
                    .push_bind(i.name_en.clone())
                    .push_bind(i.sector.clone())
                    .push_bind(i.shares_outstanding)
                    .push_bind(i.reference_price.map(|p| p.to_string()))
                    .push_bind(i64::from(i.popularity))
                    .push_bind(i.aliases.join("|"))
                    .push_bind(now);
            });
            q.push(
                " ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, board = excluded.board,
                  currency = excluded.currency, country = excluded.country,
                  name_ko = excluded.name_ko, name_en = excluded.name_en,
                  sector = excluded.sector,
                  shares_outstanding = COALESCE(excluded.shares_outstanding, instruments.shares_outstanding),
                  reference_price = COALESCE(excluded.reference_price, instruments.reference_price),
                  popularity = excluded.popularity, aliases = excluded.aliases,
                  updated_at = excluded.updated_at",
            );
            DB::execute_built(&mut q, &mut *tx).await?;
        }
        tx.commit().await?;
        Ok(instruments.len() as u64)
    }

    async fn list_instruments(&self) -> Result<Vec<moat_market::Instrument>, crate::StorageError> {
        let _db = crate::probe::op("list_instruments");
        let rows: Vec<crate::market::InstrumentRow> = sqlx::query_as(
            "SELECT id, kind, board, currency, country, name_ko, name_en, sector, shares_outstanding, reference_price, popularity, aliases
             FROM instruments ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(|r| r.into_instrument()).collect()
    }

    async fn instrument(
        &self,
        id: &moat_market::InstrumentId,
    ) -> Result<Option<moat_market::Instrument>, crate::StorageError> {
        let _db = crate::probe::op("instrument");
        let row: Option<crate::market::InstrumentRow> = sqlx::query_as(
            "SELECT id, kind, board, currency, country, name_ko, name_en, sector, shares_outstanding, reference_price, popularity, aliases
             FROM instruments WHERE id = $1",
        )
        .bind(id.to_string())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| r.into_instrument()).transpose()
    }

    async fn upsert_daily_candles(
        &self,
        id: &moat_market::InstrumentId,
        candles: &[moat_market::DailyCandle],
        source: &str,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("upsert_daily_candles");
        let id = id.to_string();
        let mut tx = self.pool.begin().await?;
        for chunk in candles.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO daily_candles (instrument_id, date, open, high, low, close, volume, source) ",
            );
            q.push_values(chunk, |mut b, c| {
                b.push_bind(id.clone())
                    .push_bind(c.date)
                    .push_bind(c.open.to_string())
                    .push_bind(c.high.to_string())
                    .push_bind(c.low.to_string())
                    .push_bind(c.close.to_string())
                    .push_bind(c.volume)
                    .push_bind(source.to_owned());
            });
            q.push(
                " ON CONFLICT (instrument_id, date) DO UPDATE SET open = excluded.open,
                  high = excluded.high, low = excluded.low, close = excluded.close,
                  volume = excluded.volume, source = excluded.source",
            );
            DB::execute_built(&mut q, &mut *tx).await?;
        }
        let dates = candles.iter().map(|c| c.date);
        bump_price_version::<DB>(&mut *tx, &id, source, dates.clone().min(), dates.max()).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn daily_candles(
        &self,
        id: &moat_market::InstrumentId,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    ) -> Result<Vec<moat_market::DailyCandle>, crate::StorageError> {
        let _db = crate::probe::op("daily_candles");
        // One row holding the range as a JSON array: years of candles cross
        // from the database in one piece instead of row by row.
        let json: Option<String> = sqlx::query_scalar(&format!(
            "SELECT {} FROM daily_candles WHERE instrument_id = $1 AND date >= $2 AND date <= $3",
            DB::CANDLES_JSON
        ))
        .bind(id.to_string())
        .bind(from)
        .bind(to)
        .fetch_one(&self.pool)
        .await?;
        crate::market::candles_from_json(json.as_deref())
    }

    async fn first_candle_date(
        &self,
        id: &moat_market::InstrumentId,
    ) -> Result<Option<chrono::NaiveDate>, crate::StorageError> {
        let _db = crate::probe::op("first_candle_date");
        Ok(
            sqlx::query_scalar("SELECT MIN(date) FROM daily_candles WHERE instrument_id = $1")
                .bind(id.to_string())
                .fetch_one(&self.pool)
                .await?,
        )
    }

    async fn latest_candle_dates(
        &self,
    ) -> Result<Vec<(moat_market::InstrumentId, chrono::NaiveDate)>, crate::StorageError> {
        let _db = crate::probe::op("latest_candle_dates");
        let rows: Vec<(String, chrono::NaiveDate)> = sqlx::query_as(
            "SELECT instrument_id, MAX(date) FROM daily_candles GROUP BY instrument_id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(i, d)| Ok((crate::market::id(&i)?, d)))
            .collect()
    }

    async fn upsert_intraday_bars(
        &self,
        id: &moat_market::InstrumentId,
        bars: &[moat_market::Bar],
        source: &str,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("upsert_intraday_bars");
        let id = id.to_string();
        let mut tx = self.pool.begin().await?;
        for chunk in bars.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO intraday_bars (instrument_id, start, open, high, low, close, volume, source) ",
            );
            q.push_values(chunk, |mut b, c| {
                b.push_bind(id.clone())
                    .push_bind(c.start)
                    .push_bind(c.open.to_string())
                    .push_bind(c.high.to_string())
                    .push_bind(c.low.to_string())
                    .push_bind(c.close.to_string())
                    .push_bind(c.volume)
                    .push_bind(source.to_owned());
            });
            q.push(
                " ON CONFLICT (instrument_id, start) DO UPDATE SET open = excluded.open,
                  high = excluded.high, low = excluded.low, close = excluded.close,
                  volume = excluded.volume, source = excluded.source",
            );
            DB::execute_built(&mut q, &mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn intraday_bars(
        &self,
        id: &moat_market::InstrumentId,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<moat_market::Bar>, crate::StorageError> {
        let _db = crate::probe::op("intraday_bars");
        let rows: Vec<crate::market::BarRow> = sqlx::query_as(
            "SELECT start, open, high, low, close, volume FROM intraday_bars
             WHERE instrument_id = $1 AND start >= $2 AND start < $3 ORDER BY start",
        )
        .bind(id.to_string())
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(|r| r.into_bar()).collect()
    }

    async fn upsert_quotes(
        &self,
        quotes: &[moat_market::Quote],
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("upsert_quotes");
        let mut tx = self.pool.begin().await?;
        for chunk in quotes.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO quotes (instrument_id, price, previous_close, open, high, low, volume, as_of, state, source, simulated) ",
            );
            q.push_values(chunk, |mut b, x| {
                b.push_bind(x.instrument_id.to_string())
                    .push_bind(x.price.to_string())
                    .push_bind(x.previous_close.to_string())
                    .push_bind(x.open.to_string())
                    .push_bind(x.high.to_string())
                    .push_bind(x.low.to_string())
                    .push_bind(x.volume)
                    .push_bind(x.as_of)
                    .push_bind(crate::market::state_str(x.state))
                    .push_bind(x.source.clone())
                    .push_bind(x.simulated);
            });
            q.push(
                " ON CONFLICT (instrument_id) DO UPDATE SET price = excluded.price,
                  previous_close = excluded.previous_close, open = excluded.open,
                  high = excluded.high, low = excluded.low, volume = excluded.volume,
                  as_of = excluded.as_of, state = excluded.state,
                  source = excluded.source, simulated = excluded.simulated",
            );
            DB::execute_built(&mut q, &mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn list_quotes(&self) -> Result<Vec<moat_market::Quote>, crate::StorageError> {
        let _db = crate::probe::op("list_quotes");
        let rows: Vec<crate::market::QuoteRow> = sqlx::query_as(
            "SELECT instrument_id, price, previous_close, open, high, low, volume, as_of, state, source, simulated FROM quotes",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(|r| r.into_quote()).collect()
    }

    async fn upsert_fx_rates(
        &self,
        rates: &[moat_market::FxRate],
        source: &str,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("upsert_fx_rates");
        let mut tx = self.pool.begin().await?;
        for chunk in rates.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO fx_rates (base, quote, date, rate, source) ",
            );
            q.push_values(chunk, |mut b, r| {
                b.push_bind(r.base.clone())
                    .push_bind(r.quote.clone())
                    .push_bind(r.date)
                    .push_bind(r.rate.to_string())
                    .push_bind(source.to_owned());
            });
            q.push(
                " ON CONFLICT (base, quote, date) DO UPDATE SET rate = excluded.rate, source = excluded.source",
            );
            DB::execute_built(&mut q, &mut *tx).await?;
        }
        let mut pairs: std::collections::BTreeMap<(&str, &str), Vec<chrono::NaiveDate>> =
            Default::default();
        for r in rates {
            pairs.entry((&r.base, &r.quote)).or_default().push(r.date);
        }
        for ((base, quote), dates) in pairs {
            let series = crate::market::fx_series(base, quote);
            let (first, last) = (dates.iter().min().copied(), dates.iter().max().copied());
            bump_price_version::<DB>(&mut *tx, &series, source, first, last).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn price_versions(
        &self,
        series: &[String],
    ) -> Result<Vec<crate::market::PriceVersion>, crate::StorageError> {
        let _db = crate::probe::op("price_versions");
        let mut out = Vec::with_capacity(series.len());
        for chunk in series.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "SELECT series, version, last_date FROM price_versions WHERE series IN (",
            );
            let mut list = q.separated(", ");
            for s in chunk {
                list.push_bind(s.clone());
            }
            q.push(")");
            let rows: Vec<(String, i64, NaiveDate)> =
                DB::fetch_all_built(&mut q, &self.pool).await?;
            out.extend(rows.into_iter().map(|(series, version, last_date)| {
                crate::market::PriceVersion {
                    series,
                    version,
                    last_date,
                }
            }));
        }
        Ok(out)
    }

    async fn fx_rates(
        &self,
        base: &str,
        quote: &str,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    ) -> Result<Vec<moat_market::FxRate>, crate::StorageError> {
        let _db = crate::probe::op("fx_rates");
        let rows: Vec<crate::market::FxRow> = sqlx::query_as(
            "SELECT base, quote, date, rate FROM fx_rates
             WHERE base = $1 AND quote = $2 AND date >= $3 AND date <= $4 ORDER BY date",
        )
        .bind(base)
        .bind(quote)
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(moat_market::FxRate {
                    rate: crate::market::dec(&r.rate)?,
                    base: r.base,
                    quote: r.quote,
                    date: r.date,
                })
            })
            .collect()
    }

    async fn upsert_dividends(
        &self,
        id: &moat_market::InstrumentId,
        dividends: &[moat_market::Dividend],
        source: &str,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("upsert_dividends");
        let id = id.to_string();
        let mut tx = self.pool.begin().await?;
        for chunk in dividends.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO dividends (instrument_id, ex_date, pay_date, record_date, amount, currency, source) ",
            );
            q.push_values(chunk, |mut b, x| {
                b.push_bind(id.clone())
                    .push_bind(x.ex_date)
                    .push_bind(x.pay_date)
                    .push_bind(x.record_date)
                    .push_bind(x.amount.to_string())
                    .push_bind(x.currency.clone())
                    .push_bind(source.to_owned());
            });
            q.push(
                " ON CONFLICT (instrument_id, ex_date) DO UPDATE SET
                  pay_date = COALESCE(excluded.pay_date, dividends.pay_date),
                  record_date = COALESCE(excluded.record_date, dividends.record_date),
                  amount = excluded.amount, currency = excluded.currency,
                  source = excluded.source",
            );
            DB::execute_built(&mut q, &mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn dividends(
        &self,
        id: &moat_market::InstrumentId,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    ) -> Result<Vec<moat_market::Dividend>, crate::StorageError> {
        let _db = crate::probe::op("dividends");
        let rows: Vec<crate::market::DividendRow> = sqlx::query_as(
            "SELECT instrument_id, ex_date, pay_date, record_date, amount, currency FROM dividends
             WHERE instrument_id = $1 AND ex_date >= $2 AND ex_date <= $3 ORDER BY ex_date",
        )
        .bind(id.to_string())
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| r.into_dividend().map(|(_, x)| x))
            .collect()
    }

    async fn upcoming_dividends(
        &self,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
        country: Option<&str>,
        limit: Option<u32>,
    ) -> Result<Vec<(moat_market::InstrumentId, moat_market::Dividend)>, crate::StorageError> {
        let _db = crate::probe::op("upcoming_dividends");
        let rows: Vec<crate::market::DividendRow> = sqlx::query_as(
            "SELECT d.instrument_id, d.ex_date, d.pay_date, d.record_date, d.amount, d.currency
             FROM dividends d JOIN instruments i ON i.id = d.instrument_id
             WHERE ((d.ex_date >= $1 AND d.ex_date <= $2)
                    OR (d.pay_date >= $1 AND d.pay_date <= $2))
               AND ($3 IS NULL OR i.country = $3)
             ORDER BY d.ex_date, d.instrument_id
             LIMIT $4",
        )
        .bind(from)
        .bind(to)
        .bind(country)
        .bind(limit.map_or(i64::MAX, i64::from))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(|r| r.into_dividend()).collect()
    }

    async fn upsert_splits(
        &self,
        id: &moat_market::InstrumentId,
        splits: &[moat_market::Split],
        source: &str,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("upsert_splits");
        let id = id.to_string();
        let mut tx = self.pool.begin().await?;
        for chunk in splits.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO splits (instrument_id, date, numerator, denominator, source) ",
            );
            q.push_values(chunk, |mut b, x| {
                b.push_bind(id.clone())
                    .push_bind(x.date)
                    .push_bind(i64::from(x.numerator))
                    .push_bind(i64::from(x.denominator))
                    .push_bind(source.to_owned());
            });
            q.push(
                " ON CONFLICT (instrument_id, date) DO UPDATE SET numerator = excluded.numerator,
                  denominator = excluded.denominator, source = excluded.source",
            );
            DB::execute_built(&mut q, &mut *tx).await.map_err(|e| {
                match e.as_database_error().map(|d| d.kind()) {
                    Some(sqlx::error::ErrorKind::CheckViolation) => {
                        crate::StorageError::Invalid("a split ratio is zero")
                    }
                    _ => e.into(),
                }
            })?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn splits(
        &self,
        id: &moat_market::InstrumentId,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    ) -> Result<Vec<moat_market::Split>, crate::StorageError> {
        let _db = crate::probe::op("splits");
        let rows: Vec<(chrono::NaiveDate, i64, i64)> = sqlx::query_as(
            "SELECT date, numerator, denominator FROM splits
             WHERE instrument_id = $1 AND date >= $2 AND date <= $3 ORDER BY date",
        )
        .bind(id.to_string())
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(crate::market::split_from_row)
            .collect()
    }

    async fn favorites(
        &self,
        user_id: i64,
    ) -> Result<Vec<moat_market::InstrumentId>, crate::StorageError> {
        let _db = crate::probe::op("favorites");
        let rows: Vec<String> = sqlx::query_scalar(
            "SELECT instrument_id FROM favorites WHERE user_id = $1 ORDER BY position",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|i| crate::market::id(i)).collect()
    }

    async fn set_favorites(
        &self,
        user_id: i64,
        ids: &[moat_market::InstrumentId],
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("set_favorites");
        let mut tx = self.pool.begin().await?;
        // Locks the member's row first: two replacements at once take turns
        // (in PostgreSQL the second's DELETE would not see the first's new rows,
        // leaving both lists mixed, or a duplicate key).
        sqlx::query("UPDATE users SET premium = premium WHERE id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM favorites WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        if !ids.is_empty() {
            let mut q = sqlx::QueryBuilder::<DB>::new(
                "INSERT INTO favorites (user_id, instrument_id, position) ",
            );
            q.push_values(ids.iter().enumerate(), |mut b, (i, id)| {
                b.push_bind(user_id)
                    .push_bind(id.to_string())
                    .push_bind(i as i64);
            });
            DB::execute_built(&mut q, &mut *tx).await.map_err(|e| {
                match e.as_database_error().map(|d| d.kind()) {
                    Some(sqlx::error::ErrorKind::ForeignKeyViolation) => {
                        crate::StorageError::Invalid("unknown instrument")
                    }
                    Some(sqlx::error::ErrorKind::UniqueViolation) => {
                        crate::StorageError::Invalid("duplicate instrument")
                    }
                    _ => e.into(),
                }
            })?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn record_provider_success(
        &self,
        market: &str,
        provider: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("record_provider_success");
        sqlx::query(
            "INSERT INTO provider_status (market, provider, last_success) VALUES ($1, $2, $3)
             ON CONFLICT (market) DO UPDATE SET provider = excluded.provider, last_success = excluded.last_success",
        )
        .bind(market)
        .bind(provider)
        .bind(at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn record_provider_error(
        &self,
        market: &str,
        provider: &str,
        error: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("record_provider_error");
        sqlx::query(
            "INSERT INTO provider_status (market, provider, last_error, last_error_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (market) DO UPDATE SET provider = excluded.provider,
               last_error = excluded.last_error, last_error_at = excluded.last_error_at",
        )
        .bind(market)
        .bind(provider)
        .bind(error)
        .bind(at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn provider_statuses(
        &self,
    ) -> Result<Vec<crate::market::ProviderStatus>, crate::StorageError> {
        let _db = crate::probe::op("provider_statuses");
        let rows: Vec<crate::market::StatusRow> = sqlx::query_as(
            "SELECT market, provider, last_success, last_error, last_error_at FROM provider_status ORDER BY market",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| crate::market::ProviderStatus {
                market: r.market,
                provider: r.provider,
                last_success: r.last_success,
                last_error: r.last_error,
                last_error_at: r.last_error_at,
            })
            .collect())
    }
}

/// Records, in the writing transaction, a write from `source` of the price series
/// `series` covering `first..=last` (table `price_versions`, see its migration): the
/// row is created at version 1, or its version raised by one when `first` is on or
/// before the last day already stored or the source changed; `last_date` moves
/// forward only.
async fn bump_price_version<DB: Sql>(
    conn: &mut DB::Connection,
    series: &str,
    source: &str,
    first: Option<NaiveDate>,
    last: Option<NaiveDate>,
) -> Result<(), crate::StorageError>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    NaiveDate: for<'q> Encode<'q, DB> + Type<DB>,
{
    let (Some(first), Some(last)) = (first, last) else {
        return Ok(());
    };
    sqlx::query(
        "INSERT INTO price_versions (series, version, source, last_date) VALUES ($1, 1, $2, $3)
         ON CONFLICT (series) DO UPDATE SET
             version = price_versions.version
                 + CASE WHEN $4 <= price_versions.last_date
                        OR excluded.source <> price_versions.source THEN 1 ELSE 0 END,
             source = excluded.source,
             last_date = CASE WHEN excluded.last_date > price_versions.last_date
                 THEN excluded.last_date ELSE price_versions.last_date END",
    )
    .bind(series)
    .bind(source)
    .bind(last)
    .bind(first)
    .execute(conn)
    .await?;
    Ok(())
}
