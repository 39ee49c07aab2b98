//! The `moat` binary: everything lives in `moat-server`; this file only hands over.
fn main() -> std::process::ExitCode {
    moat_server::cli::main()
}
