//! `ApiJson<T>`: a JSON request or response body whose rejections use the API error
//! shape, and which reads objects only where the type has named fields.
//!
//! serde's derive lets a struct be read from a JSON array of its fields in order, so
//! `PATCH /api/portfolios/{id}` with `[null, null]` would pass for `{"name": null,
//! "currency": null}`. No client means that, so the body is read through [`Strict`],
//! a deserializer that wraps every nested one and refuses an array wherever a struct
//! (or a struct variant) is expected: 422 `invalid_body`. Its limit: a type read
//! through serde's buffering (`#[serde(flatten)]` fields inside it, untagged or
//! internally tagged enums) is replayed from that buffer, which the wrapper does not
//! reach, so inside such a value an array still passes for a struct.

use axum::{
    body::Bytes,
    extract::{FromRequest, Request},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use serde::{
    de::{self, DeserializeOwned, DeserializeSeed, Deserializer, Visitor},
    Serialize,
};

use super::error::{ApiError, ErrorCode};

/// A JSON request or response body.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
                "Send the body as JSON with Content-Type: application/json.",
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    ErrorCode::PayloadTooLarge,
                    "The request body is too large.",
                )
            } else {
                ApiError::bad_request(ErrorCode::BadRequest, e.body_text())
            }
        })?;
        parse(&bytes).map(Self)
    }
}

/// `application/json` or `application/<something>+json`, parameters allowed.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.split_once('/') {
        Some(("application", subtype)) => subtype == "json" || subtype.ends_with("+json"),
        _ => false,
    }
}

/// Reads `T` from a JSON text through [`Strict`]: 400 `malformed_json` when it is not
/// JSON, 422 `invalid_body` (naming the field) when it does not have `T`'s shape.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(Strict(&mut de))
        .map_err(|e| refusal(&e.path().to_string(), e.into_inner()))?;
    de.end().map_err(|e| refusal(".", e))?;
    Ok(value)
}

impl<T: DeserializeOwned> ApiJson<T> {
    /// A body already parsed as JSON (to hash it, say), read as `T` through [`Strict`]:
    /// the same 422 `invalid_body` as a body that does not have the expected shape.
    pub fn from_value(value: serde_json::Value) -> Result<T, ApiError> {
        serde_path_to_error::deserialize(Strict(value))
            .map_err(|e| refusal(&e.path().to_string(), e.into_inner()))
    }
}

fn refusal(path: &str, e: serde_json::Error) -> ApiError {
    match e.classify() {
        serde_json::error::Category::Data => {
            let at = if path == "." {
                e.to_string()
            } else {
                format!("{path}: {e}")
            };
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::InvalidBody,
                format!("The body does not have the expected shape: {at}"),
            )
        }
        _ => ApiError::bad_request(
            ErrorCode::MalformedJson,
            format!("The body is not valid JSON: {e}"),
        ),
    }
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// Wraps a deserializer, or a seed, sequence, map or enum access of one, so that
/// everything read through it is strict too (see the module comment).
pub struct Strict<T>(pub T);

/// Wraps a visitor; with `fields`, an array (`visit_seq`) is refused.
struct StrictVisitor<V> {
    inner: V,
    fields: bool,
}

impl<V> StrictVisitor<V> {
    fn any(inner: V) -> Self {
        Self {
            inner,
            fields: false,
        }
    }

    fn fields(inner: V) -> Self {
        Self {
            inner,
            fields: true,
        }
    }
}

macro_rules! forward_deserialize {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
                self.0.$method(StrictVisitor::any(visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward_deserialize!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_unit_struct(name, StrictVisitor::any(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_newtype_struct(name, StrictVisitor::any(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_tuple(len, StrictVisitor::any(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_tuple_struct(name, len, StrictVisitor::any(visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_struct(name, fields, StrictVisitor::fields(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_enum(name, variants, StrictVisitor::any(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for StrictVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit!(
        visit_bool(bool),
        visit_i8(i8),
        visit_i16(i16),
        visit_i32(i32),
        visit_i64(i64),
        visit_i128(i128),
        visit_u8(u8),
        visit_u16(u16),
        visit_u32(u32),
        visit_u64(u64),
        visit_u128(u128),
        visit_f32(f32),
        visit_f64(f64),
        visit_char(char),
        visit_str(&str),
        visit_borrowed_str(&'de str),
        visit_string(String),
        visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8]),
        visit_byte_buf(Vec<u8>),
    );

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_some(Strict(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_newtype_struct(Strict(d))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        if self.fields {
            return Err(de::Error::invalid_type(de::Unexpected::Seq, &self));
        }
        self.inner.visit_seq(Strict(seq))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_map(Strict(map))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_enum(Strict(data))
    }
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for Strict<T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(Strict(d))
    }
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Strict<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Strict(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Strict<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Strict(seed))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Strict(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Strict<A> {
    type Error = A::Error;
    type Variant = Strict<A::Variant>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(Strict(seed))
            .map(|(value, variant)| (value, Strict(variant)))
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Strict<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Strict(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, StrictVisitor::any(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0
            .struct_variant(fields, StrictVisitor::fields(visitor))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Patch {
        name: Option<String>,
        currency: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Outer {
        patch: Patch,
        list: Vec<Patch>,
        #[serde(default)]
        maybe: Option<Patch>,
        #[serde(default)]
        pair: Option<(u8, String)>,
        #[serde(default)]
        map: BTreeMap<String, Patch>,
        #[serde(default)]
        kind: Option<Kind>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Plain,
        Wrapped(Patch),
        Shaped { size: u8 },
    }

    fn code_of<T: DeserializeOwned + std::fmt::Debug>(json: &str) -> Result<T, (u16, String)> {
        parse::<T>(json.as_bytes()).map_err(|e| (e.status.as_u16(), e.code.as_str().to_owned()))
    }

    #[test]
    fn objects_are_read_and_arrays_stay_arrays() {
        let ok: Outer = code_of(
            r#"{"patch": {"name": "a", "currency": null}, "list": [{"name": null, "currency": "KRW"}],
               "maybe": {"name": "m", "currency": null}, "pair": [1, "x"],
               "map": {"k": {"name": null, "currency": null}}, "kind": {"shaped": {"size": 3}}}"#,
        )
        .unwrap();
        assert_eq!(ok.list.len(), 1);
        assert_eq!(ok.pair, Some((1, "x".into())));
        assert_eq!(ok.kind, Some(Kind::Shaped { size: 3 }));
        let plain: Outer =
            code_of(r#"{"patch": {"name": null, "currency": null}, "list": [], "kind": "plain"}"#)
                .unwrap();
        assert_eq!(plain.kind, Some(Kind::Plain));
    }

    #[test]
    fn an_array_where_an_object_is_expected_is_invalid_at_any_depth() {
        let cases: &[(&str, &str)] = &[
            ("[null, null]", "the top level"),
            (r#"{"patch": [null, null], "list": []}"#, "a field"),
            (
                r#"{"patch": {"name": null, "currency": null}, "list": [[null, null]]}"#,
                "an element of a list",
            ),
            (
                r#"{"patch": {"name": null, "currency": null}, "list": [], "maybe": ["a", "b"]}"#,
                "an optional field",
            ),
            (
                r#"{"patch": {"name": null, "currency": null}, "list": [], "map": {"k": [null, null]}}"#,
                "a map value",
            ),
            (
                r#"{"patch": {"name": null, "currency": null}, "list": [], "kind": {"wrapped": [null, null]}}"#,
                "a newtype variant",
            ),
            (
                r#"{"patch": {"name": null, "currency": null}, "list": [], "kind": {"shaped": [3]}}"#,
                "a struct variant",
            ),
        ];
        for (json, what) in cases {
            let err = code_of::<Outer>(json).map(|_| ()).unwrap_err();
            assert_eq!(err, (422, "invalid_body".into()), "{what}: {json}");
        }
        assert_eq!(
            code_of::<Patch>("[null, null]").map(|_| ()).unwrap_err(),
            (422, "invalid_body".into())
        );
    }

    #[test]
    fn the_message_names_the_field_and_syntax_errors_stay_400() {
        let err = parse::<Outer>(br#"{"patch": [null, null], "list": []}"#)
            .map(|_| ())
            .unwrap_err();
        assert!(
            err.message
                .starts_with("The body does not have the expected shape: patch: invalid type: sequence, expected struct Patch"),
            "{}",
            err.message
        );
        for bad in ["{\"name\": ", "not json", "{} {}"] {
            let (status, code) = code_of::<Patch>(bad).map(|_| ()).unwrap_err();
            assert_eq!((status, code.as_str()), (400, "malformed_json"), "{bad}");
        }
    }
}
