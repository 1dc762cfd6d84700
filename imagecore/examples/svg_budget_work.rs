//! Prints the SVG budget's estimate for files at a width: `svg_work WIDTH FILE…`.
use imagecore::geometry::output_size;
use imagecore::svg::budget;
use imagecore::svg::{parse, size};
use resvg::tiny_skia::Transform;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target: u32 = args[1].parse().expect("width");
    for file in &args[2..] {
        let bytes = std::fs::read(file).expect("read");
        let line = parse(&bytes).and_then(|tree| {
            let (w, h) = size(&tree);
            let (width, height) = output_size(w, h, target)?;
            let (width, height) = imagecore::svg::fit::fit(&tree, width, height)?;
            let s = tree.size();
            let ts = Transform::from_scale(width as f32 / s.width(), height as f32 / s.height());
            Ok((width, budget::check(&tree, ts, width, height)?))
        });
        match line {
            Ok((w, work)) => println!("{file}\t{work:.0}\t{w}"),
            Err(e) => println!("{file}\terr {}", e.message),
        }
    }
}
