use phpxml::{Handler, Key, Parser};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
struct C;
static ON: AtomicBool = AtomicBool::new(false);
thread_local!(static IN: Cell<bool> = const { Cell::new(false) });
unsafe impl GlobalAlloc for C {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if ON.load(Ordering::Relaxed) && !IN.with(|c| c.replace(true)) {
            ON.store(false, Ordering::Relaxed);
            eprintln!("{}", std::backtrace::Backtrace::force_capture());
            IN.with(|c| c.set(false));
        }
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
}
#[global_allocator]
static G: C = C;
struct H;
impl Handler for H {
    fn start_element(&mut self, _: &[u8], _: &[(Key, Vec<u8>)]) {}
}
#[test]
fn probe() {
    let mut p = Parser::new(None).unwrap();
    let rec = "<a></a>".repeat(2000);
    let _ = p.parse(&mut H, b"<r>", false);
    for c in rec.as_bytes().chunks(4096) {
        let _ = p.parse(&mut H, c, false);
    }
    ON.store(true, Ordering::Relaxed);
    for c in rec.as_bytes().chunks(4096) {
        let _ = p.parse(&mut H, c, false);
    }
}
