#!/bin/sh
# Regenerates the landing page's background clip and poster in public/landing/ (needs ffmpeg:
# `apt-get install -y ffmpeg`). The clip is drawn, not filmed: soft pink and purple light blobs
# drifting over a deep plum gradient. Every motion is a whole number of turns of one period, so the
# last frame flows into the first and the loop has no seam. Rendered small and upscaled because the
# picture is all blur anyway; that keeps the files tiny. It takes a few minutes (geq is slow);
# `FPS=1` renders a six-frame draft in seconds for trying out colours.
set -eu
out="$(cd "$(dirname "$0")/../../../public/landing" && pwd)"
period=6
fps=${FPS:-24}
w=384
h=216

p="(2*PI*T/$period)"
# blob(cx, cy, radius as a fraction of W): a soft disc of light, 1 at its centre.
blob() { echo "exp(-(pow(X-W*($1),2)+pow(Y-H*($2),2))/pow(W*$3,2))"; }
b1=$(blob "0.28+0.14*sin($p)" "0.42+0.22*cos($p)" 0.30)        # brand pink #c2366b
b2=$(blob "0.72+0.14*cos($p)" "0.58+0.20*sin($p+1)" 0.34)      # accent purple #7b2ff7
b3=$(blob "0.50+0.30*sin(2*$p+2)" "0.30+0.12*cos($p+0.5)" 0.16) # light pink #ff7aa8
b4=$(blob "0.15+0.70*(0.5+0.5*sin($p+3))" "0.78+0.06*sin(3*$p)" 0.05) # small bokeh dots
b5=$(blob "0.85-0.60*(0.5+0.5*cos($p+1))" "0.18+0.07*cos(2*$p)" 0.04)
b6=$(blob "0.60+0.20*sin(3*$p+4)" "0.70+0.15*cos(2*$p+1)" 0.035)

r="clip(34+26*Y/H + 150*$b1 + 70*$b2 + 140*$b3 + 120*$b4 + 110*$b5 + 100*$b6,0,255)"
g="clip(12+8*Y/H + 28*$b1 + 26*$b2 + 70*$b3 + 100*$b4 + 90*$b5 + 85*$b6,0,255)"
b="clip(52+24*X/W + 70*$b1 + 170*$b2 + 100*$b3 + 130*$b4 + 150*$b5 + 140*$b6,0,255)"

ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "color=c=black:s=${w}x${h}:r=${fps}:d=${period},format=gbrp" \
  -vf "geq=r='$r':g='$g':b='$b',gblur=sigma=6,hue=H='0.18*sin(2*PI*t/$period)',scale=960:540:flags=bicubic,format=yuv420p" \
  -an -c:v libx264 -preset veryslow -crf 30 -profile:v high -x264-params keyint=$((period * fps)) \
  -movflags +faststart "$out/hero.mp4"

ffmpeg -hide_banner -loglevel error -y -i "$out/hero.mp4" \
  -an -c:v libvpx-vp9 -b:v 0 -crf 42 -row-mt 1 -deadline good -cpu-used 1 "$out/hero.webm"

ffmpeg -hide_banner -loglevel error -y -i "$out/hero.mp4" -frames:v 1 -q:v 5 "$out/hero-poster.jpg"

ls -l "$out"
