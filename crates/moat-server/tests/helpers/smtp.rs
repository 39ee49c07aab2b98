//! A real SMTP server for the tests: it listens on 127.0.0.1, speaks enough of RFC 5321
//! (EHLO/HELO, MAIL, RCPT, DATA with dot-unstuffing, RSET, NOOP, QUIT) for a mail
//! client such as lettre, and keeps every message it is given.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpStream},
};

/// One message as the sink received it.
#[derive(Debug, Clone)]
pub struct ReceivedMail {
    pub from: String,
    pub to: Vec<String>,
    /// The message: headers and body, CRLF line ends, dot-unstuffed.
    pub data: String,
}

impl ReceivedMail {
    /// The body (after the headers), quoted-printable soft breaks and `=XX` escapes
    /// decoded when the message says so.
    pub fn body(&self) -> String {
        let (head, body) = self.data.split_once("\r\n\r\n").unwrap_or(("", &self.data));
        if head.to_ascii_lowercase().contains("quoted-printable") {
            decode_quoted_printable(body)
        } else if head
            .to_ascii_lowercase()
            .contains("content-transfer-encoding: base64")
        {
            use base64::Engine;
            let joined: String = body.split_whitespace().collect();
            String::from_utf8(
                base64::engine::general_purpose::STANDARD
                    .decode(joined)
                    .expect("base64 body"),
            )
            .expect("UTF-8 body")
        } else {
            body.to_owned()
        }
    }

    /// The first `http…` link of the body.
    pub fn link(&self) -> String {
        self.body()
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("http"))
            .unwrap_or_else(|| panic!("a link in {}", self.body()))
            .to_owned()
    }

    /// The `token` of the body's link fragment (`…#token=…`).
    pub fn token(&self) -> String {
        self.link()
            .split_once("#token=")
            .expect("a #token= link")
            .1
            .to_owned()
    }
}

fn decode_quoted_printable(s: &str) -> String {
    let joined = s.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).expect("UTF-8 body")
}

/// The running sink; dropping it stops accepting.
pub struct SmtpSink {
    pub port: u16,
    mails: Arc<Mutex<Vec<ReceivedMail>>>,
    task: tokio::task::JoinHandle<()>,
}

impl SmtpSink {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let mails = Arc::new(Mutex::new(Vec::new()));
        let kept = mails.clone();
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let kept = kept.clone();
                tokio::spawn(async move {
                    let _ = serve(socket, kept).await;
                });
            }
        });
        Self { port, mails, task }
    }

    /// Every message so far.
    pub fn mails(&self) -> Vec<ReceivedMail> {
        self.mails.lock().unwrap().clone()
    }

    /// The messages to `to` so far.
    pub fn mails_to(&self, to: &str) -> Vec<ReceivedMail> {
        self.mails()
            .into_iter()
            .filter(|m| m.to.iter().any(|t| t == to))
            .collect()
    }

    /// Waits for the `n`-th message to `to` (1-based) and returns it.
    pub async fn wait_for(&self, to: &str, n: usize) -> ReceivedMail {
        super::wait_until(&format!("{n} mail(s) to {to}"), || async move {
            self.mails_to(to).len() >= n
        })
        .await;
        self.mails_to(to)[n - 1].clone()
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The longest a client may stay silent before the sink hangs up.
const IDLE: Duration = Duration::from_secs(30);

async fn serve(socket: TcpStream, kept: Arc<Mutex<Vec<ReceivedMail>>>) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(b"220 sink.test ESMTP ready\r\n").await?;
    let (mut from, mut to) = (String::new(), Vec::new());
    loop {
        let mut line = String::new();
        let n = tokio::time::timeout(IDLE, lines.read_line(&mut line))
            .await
            .map_err(|_| std::io::ErrorKind::TimedOut)??;
        if n == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_owned();
        let verb = command
            .split([' ', ':'])
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n",
            "HELO" => b"250 sink.test\r\n",
            "MAIL" => {
                from = address(&command);
                to.clear();
                b"250 OK\r\n"
            }
            "RCPT" => {
                to.push(address(&command));
                b"250 OK\r\n"
            }
            "DATA" => {
                write
                    .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                    .await?;
                let mut data = String::new();
                loop {
                    let mut l = String::new();
                    if lines.read_line(&mut l).await? == 0 {
                        return Ok(());
                    }
                    if l == ".\r\n" || l == ".\n" {
                        break;
                    }
                    data.push_str(l.strip_prefix('.').unwrap_or(&l));
                }
                kept.lock().unwrap().push(ReceivedMail {
                    from: std::mem::take(&mut from),
                    to: std::mem::take(&mut to),
                    data,
                });
                b"250 OK: queued\r\n"
            }
            "RSET" => {
                from.clear();
                to.clear();
                b"250 OK\r\n"
            }
            "NOOP" => b"250 OK\r\n",
            "QUIT" => {
                write.write_all(b"221 Bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 Command not implemented\r\n",
        };
        write.write_all(reply).await?;
    }
}

/// The address of `MAIL FROM:<a>` or `RCPT TO:<a>`.
fn address(command: &str) -> String {
    command
        .split_once('<')
        .and_then(|(_, rest)| rest.split_once('>'))
        .map(|(a, _)| a.to_owned())
        .unwrap_or_default()
}
