#!/bin/sh
# CLI checks of 'procgen rules run' on the GPU machine: the CUDA build's
# results against its own CPU backend (run by gpu-rules-run.sh with CLI=this
# file, from a directory holding configs/rules; $BIN holds procgen).
P=${BIN:-../../bin/rules}/procgen
set -x
$P devices | head -5
for sched in compact simple; do for l in A B C; do
	$P -q --device cuda rules run configs/rules/life.rules --generate 1000 --until-fixpoint --steps 300 --schedule $sched --layout $l -o life-gpu.csv; echo "rc=$?"
	$P -q --device cuda rules run configs/rules/sandpile.rules --generate 500 --until-fixpoint --schedule $sched --layout $l -o sand-gpu.csv --stats sand-gpu-stats.csv; echo "rc=$?"
	[ -f life-cpu.csv ] || $P -q --device cpu rules run configs/rules/life.rules --generate 1000 --until-fixpoint --steps 300 -o life-cpu.csv
	[ -f sand-cpu.csv ] || $P -q --device cpu rules run configs/rules/sandpile.rules --generate 500 --until-fixpoint -o sand-cpu.csv --stats sand-cpu-stats.csv
	cmp life-gpu.csv life-cpu.csv && cmp sand-gpu.csv sand-cpu.csv && cmp sand-gpu-stats.csv sand-cpu-stats.csv && echo "same $sched $l"
done; done
printf 'state { int a[10] ~ uniform(0, 12) }\nrule r over i in 0..10 { a[a[i]] = i }\n' > bad.rules
$P --device cuda rules run bad.rules --generate 100 --steps 3; echo "rc=$?"
$P --device cpu rules run bad.rules --generate 100 --steps 3; echo "rc=$?"
time $P -q --device cuda rules run configs/rules/synthetic.rules --generate 16384 -D RANGE=4096 --steps 10 -o syn.json
