# Reads `go test -bench` output and prints, per benchmark and metric unit, the
# median over all runs: the figure to quote.
/^Benchmark/ {
  name = $1
  for (i = 3; i + 1 <= NF; i += 2) {
    key = name SUBSEP $(i + 1)
    n[key]++
    v[key, n[key]] = $i
    if (!(key in seen)) { seen[key] = 1; order[++k] = key }
  }
}
END {
  printf "%-40s %14s  %s\n", "benchmark", "median", "unit (runs)"
  for (j = 1; j <= k; j++) {
    key = order[j]; m = n[key]
    for (a = 1; a <= m; a++) s[a] = v[key, a] + 0
    for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (s[b] < s[a]) { t = s[a]; s[a] = s[b]; s[b] = t }
    med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
    split(key, parts, SUBSEP)
    printf "%-40s %14.4g  %s (%d)\n", parts[1], med, parts[2], m
  }
}
