#![cfg(feature = "svg")]
//! SCRATCH (A3): runs every file of $A3_CORPUS through rasterize_png, catching panics.

#[test]
#[ignore]
fn scan_corpus_dir() {
    let dir = std::env::var("A3_CORPUS").expect("A3_CORPUS");
    let width: u32 = std::env::var("A3_WIDTH")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(1200);
    let filter = std::env::var("A3_ONLY").unwrap_or_default();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if !path.to_string_lossy().contains(&filter) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let start = std::time::Instant::now();
        let result = std::panic::catch_unwind(|| imagecore::svg::rasterize_png(&bytes, width));
        let outcome = match result {
            Ok(Ok((_, w, h))) => format!("ok {w}x{h}"),
            Ok(Err(e)) => format!("{e}"),
            Err(_) => "PANIC".to_string(),
        };
        eprintln!(
            "{:?}\t{}\t{} ms",
            path.file_name().unwrap(),
            outcome,
            start.elapsed().as_millis()
        );
    }
}

#[test]
#[ignore]
fn scan_budget() {
    let dir = std::env::var("A3_CORPUS").expect("A3_CORPUS");
    let width: u32 = std::env::var("A3_WIDTH")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(1200);
    let filter = std::env::var("A3_ONLY").unwrap_or_default();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if !path.to_string_lossy().contains(&filter) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let Ok(tree) = imagecore::svg::parse(&bytes) else {
            continue;
        };
        let size = tree.size();
        let h = (width as f32 * size.height() / size.width())
            .round()
            .max(1.0) as u32;
        let ts = resvg::tiny_skia::Transform::from_scale(
            width as f32 / size.width(),
            h as f32 / size.height(),
        );
        let work = imagecore::svg_budget::check(&tree, ts, width, h);
        let start = std::time::Instant::now();
        let r = imagecore::svg::rasterize_png(&bytes, width);
        eprintln!(
            "{:?}\twork {:?}\t{} ms\t{}",
            path.file_name().unwrap(),
            work.map(|w| w / 1e6),
            start.elapsed().as_millis(),
            r.is_ok()
        );
    }
}
