//! Property: any change to a valid token's bytes makes it invalid.

use moat_server::accounts::token::{Claims, TokenData, TokenKeys};
use proptest::prelude::*;

fn token(keys: &TokenKeys) -> String {
    keys.sign(&Claims {
        exp: chrono::Utc::now().timestamp() + 3600,
        iat: chrono::Utc::now().timestamp(),
        jti: "6f1c1a0e-8a53-4c1b-9a56-3b0f8d6f1d2a".into(),
        data: TokenData {
            user_id: 7,
            nickname: "개미".into(),
            chat_user_id: uuid::Uuid::nil(),
        },
    })
    .unwrap()
}

fn accepted(keys: &TokenKeys, bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|s| keys.verify(s, chrono::Utc::now().timestamp()).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn flipping_any_bit_is_rejected(index in any::<prop::sample::Index>(), bit in 0u8..8) {
        let keys = TokenKeys::from_secret(&[9; 32]);
        let mut bytes = token(&keys).into_bytes();
        prop_assert!(accepted(&keys, &bytes));
        let i = index.index(bytes.len());
        bytes[i] ^= 1 << bit;
        prop_assert!(!accepted(&keys, &bytes), "bit {} of byte {} flipped", bit, i);
    }

    #[test]
    fn replacing_any_byte_is_rejected(index in any::<prop::sample::Index>(), value in any::<u8>()) {
        let keys = TokenKeys::from_secret(&[9; 32]);
        let mut bytes = token(&keys).into_bytes();
        let i = index.index(bytes.len());
        prop_assume!(bytes[i] != value);
        bytes[i] = value;
        prop_assert!(!accepted(&keys, &bytes), "byte {} set to {}", i, value);
    }
}
