# Prints the paper's Tables 1-4 (Köster et al., the synthetic rule) beside
# this machine's figures: medians of the ms/app metric of BenchmarkTable
# (GPU, both schedules) and BenchmarkTableCPU (CPU backend) in the go test
# outputs given as arguments.
#   awk -f scripts/rules-table.awk bin/rules-bench-h100.txt bin/rules-bench-cpu2.txt
function median(key,   n, i, j, t, a) {
	n = cnt[key]
	if (n == 0) return "-"
	for (i = 1; i <= n; i++) a[i] = val[key, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return a[int((n + 1) / 2)]
}
BEGIN {
	# GTX 1080 Ti, ms: "simple compact" per row (Tables 1 and 3, then 2 and 4).
	split("0.36 0.21|1.65 0.35|0.35 0.20|0.33 0.21|1.64 0.35|0.35 0.21|" \
	      "1.47 0.47|10.90 1.01|1.38 0.43|1.47 0.5|10.96 0.99|1.38 0.43|" \
	      "2.28 0.67|52.08 2.42|2.27 0.66|2.27 0.67|52.32 2.38|2.27 0.67|" \
	      "8.88 2.53|241.38 8.33|8.63 2.45|8.85 2.56|243.75 8.14|8.61 2.45|" \
	      "0.34 0.33|1.43 0.36|0.34 0.33|2.06 2.03|2.52 1.42|2.06 2.06|" \
	      "3.06 0.96|51.62 2.42|2.97 0.99|12.5 7.06|50.85 6.55|11.64 7.27", paper, "|")
	k = 0
	for (s = 2048; s <= 16384; s *= 8) for (r = 1024; r <= 4096; r *= 4) for (phi = 2; phi <= 3; phi++)
		for (l = 1; l <= 3; l++) rows[++k] = sprintf("t1/S=%d/R=%d/phi=%d/load=20/L=%s", s, r, phi, substr("ABC", l, 1))
	for (s = 2048; s <= 16384; s *= 8) for (load = 200; load <= 2000; load *= 10)
		for (l = 1; l <= 3; l++) rows[++k] = sprintf("t2/S=%d/R=1024/phi=2/load=%d/L=%s", s, load, substr("ABC", l, 1))
	nrows = k
}
/ms\/app/ {
	name = $1
	sub(/^Benchmark/, "", name)
	sub(/-[0-9]+$/, "", name)
	for (i = 2; i <= NF; i++) if ($i == "ms/app") v = $(i-1)
	cnt[name]++
	val[name, cnt[name]] = v
}
END {
	printf "%-5s %6s %5s %3s %5s %2s | %12s %12s | %12s %12s | %10s\n", "table", "states", "range", "phi", "load", "L",
		"simple", "1080Ti", "compact", "1080Ti", "CPU"
	for (k = 1; k <= nrows; k++) {
		split(rows[k], f, "/")
		split(paper[k], pp, " ")
		cpu = rows[k]; sub(/\/L=[ABC]$/, "", cpu)
		tab = (f[1] == "t1") ? "1/3" : "2/4"
		printf "%-5s %6s %5s %3s %5s %2s | %12s %12s | %12s %12s | %10s\n", tab, substr(f[2], 3), substr(f[3], 3),
			substr(f[4], 5), substr(f[5], 6), substr(f[6], 3), median("Table/" rows[k] "/simple"), pp[1],
			median("Table/" rows[k] "/compact"), pp[2], median("TableCPU/" cpu)
	}
	print "ms per application of the synthetic rule to every state; medians; CPU: BenchmarkTableCPU (layout-free)"
}
