//! Release builds embed `web/dist` (rust-embed reads it at compile time). Cargo does
//! not know that, so without this a rebuilt web app would not be re-embedded.
fn main() {
    println!("cargo:rerun-if-changed=../../web/dist");
}
