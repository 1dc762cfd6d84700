#!/usr/bin/env bash
# Rebuilds imagecore/fonts/DejaVuSans-subset.ttf, the one font the SVG module embeds (svg/font.rs),
# from Debian's fonts-dejavu-core with fontTools' subsetter (Debian python3-fonttools):
#
#   apt-get install fonts-dejavu-core python3-fonttools
#   bash imagecore/tools/subset_font.sh
#
# Kept: Basic Latin, Latin-1, Latin Extended-A and -B, IPA, spacing modifiers, combining marks,
# Greek, Cyrillic, Latin Extended Additional, general punctuation, currency and letterlike symbols,
# and U+FFFD. Hinting is dropped (resvg draws outlines unhinted). Output sizes are in docs/internals/svg.md.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source_font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
/usr/bin/python3 -m fontTools.subset "$source_font" \
  --unicodes="U+0020-007E,U+00A0-024F,U+0250-02FF,U+0300-036F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,U+2000-206F,U+20A0-20CF,U+2100-214F,U+FFFD" \
  --layout-features='*' --no-hinting --notdef-outline --recommended-glyphs \
  --name-IDs='*' --name-languages='*' \
  --output-file="$here/fonts/DejaVuSans-subset.ttf"
cp /usr/share/doc/fonts-dejavu-core/copyright "$here/fonts/LICENSE-DejaVu.txt"
ls -l "$here/fonts/DejaVuSans-subset.ttf"
