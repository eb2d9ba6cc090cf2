//! Promises of the public API that no behaviour test covers: auto traits
//! (a parser can move to another thread, errors work with `?` and
//! `Box<dyn Error + Send + Sync>`), and the error chain.

use std::error::Error as _;

use phpxml::{Error, Event, EventReader, ParseError, Parser, Struct};

fn send_sync<T: Send + Sync>() {}

#[test]
fn types_are_send_and_sync() {
    send_sync::<Parser>();
    send_sync::<Error>();
    send_sync::<ParseError>();
    send_sync::<Struct>();
    send_sync::<Event>();
    send_sync::<EventReader<std::fs::File>>();
}

#[test]
fn a_parser_moves_to_another_thread() {
    let mut parser = Parser::default();
    let ok = std::thread::spawn(move || parser.parse(&mut (), b"<a/>", true))
        .join()
        .unwrap();
    assert!(ok);
}

#[test]
fn errors_box_and_chain() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut events = Parser::new(None)?.events(&b"<a>"[..]);
    let err = events.find_map(Result::err).expect("an error at the end");
    assert!(
        err.source().is_some(),
        "Parse errors have the ParseError as source"
    );
    let boxed: Box<dyn std::error::Error + Send + Sync> = err.into();
    assert!(boxed.to_string().contains("XML error"));
    Ok(())
}
