#!/usr/bin/env bash
set -u
cd bin/pack && xz -d procgen.xz & (cd bin/pack && xz -d rules.test.xz); wait; chmod +x bin/pack/*
export PROCGEN_REQUIRE_GPU=1
T0=$(date +%s)
cd internal/rules
../../bin/pack/rules.test -test.list '.*' | grep -v '^ok' > /tmp/all.txt
grep -v '^TestCUDATiled' /tmp/all.txt | awk '{print > ("/tmp/lane" (NR%3))}'
for l in 0 1 2; do
  pat="^($(paste -sd'|' /tmp/lane$l))\$"
  ( ../../bin/pack/rules.test -test.short -test.v -test.run "$pat" -test.timeout 420s > $OUT/short$l.log 2>&1; echo "lane$l rc=$? $(( $(date +%s) - T0 ))s" >> $OUT/summary.txt ) &
done
( ../../bin/pack/rules.test -test.v -test.run '^TestCUDATiled' -test.timeout 420s > $OUT/tiled.log 2>&1; echo "tiled rc=$? $(( $(date +%s) - T0 ))s" >> $OUT/summary.txt ) &
wait
cd ../..
echo "tests done $(( $(date +%s) - T0 ))s" >> $OUT/summary.txt
cat $OUT/summary.txt
grep -h -- "--- FAIL\|panic:" $OUT/*.log | head -30
grep -h -c -- "--- PASS" $OUT/*.log | paste -sd+ | bc
# big board, time permitting
if (( $(date +%s) - T0 < 330 )); then
  cd internal/rules
  timeout 90 ../../bin/pack/rules.test -test.run '^$' -test.bench 'LifeBigBoardCUDA' -test.benchtime 1x -test.timeout 90s 2>&1 | grep -v "^goos\|^goarch\|^pkg\|^cpu" | tee $OUT/bench-cuda.txt
  PROCGEN_LIFE_BIG_STEPS=20 timeout 100 ../../bin/pack/rules.test -test.run '^$' -test.bench 'LifeBigBoardCPU' -test.benchtime 1x -test.timeout 100s 2>&1 | grep -v "^goos\|^goarch\|^pkg\|^cpu" | tee $OUT/bench-cpu.txt
  cd ../..
fi
if (( $(date +%s) - T0 < 480 )); then
  for d in cuda auto; do
    t0=$(date +%s.%N); timeout 60 bin/pack/procgen -v --seed 1 --device $d rules run configs/rules/life.rules -D W=16384 -D H=16384 --generate 1 --steps 1000 -o /tmp/big-$d.rle > $OUT/big-$d.out 2> $OUT/big-$d.err; rc=$?; t1=$(date +%s.%N)
    echo "whole $d 1000 steps rc=$rc $(awk -v a=$t0 -v b=$t1 'BEGIN{printf "%.2f", b-a}') s"; tail -2 $OUT/big-$d.err
  done
  cmp /tmp/big-cuda.rle /tmp/big-auto.rle && echo "cuda and auto boards equal"
fi
