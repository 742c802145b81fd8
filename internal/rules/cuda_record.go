//go:build cuda

package rules

import (
	"math"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/parallel"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// observeAll adds every state's words, downloaded in layout l (dev), to
// rec's row t (hold: to t and every later step). --record on the GPU runs
// one step a launch; where an observable is not an integer one (a float
// field's sum, mean or extremes) or states are traced, it reduces on the
// host: the download costs 4 bytes a word of every state a step. Else the
// device reduces (deviceRecorder). The states are observed on every core, each
// into its own accumulators, which are then merged in state order, so the
// result does not depend on how the cores split them.
func observeAll(rec *recorder, t int, st *States, l Layout, dev []uint32, hold bool) {
	if rec == nil {
		return
	}
	wp := ptx.PadWords(st.Words)
	per := make([][]Acc, st.N)
	parallel.For(st.N, 1, func(_, lo, hi int) {
		var words []uint32
		if l != LayoutA {
			words = make([]uint32, st.Words)
		}
		for s := lo; s < hi; s++ {
			if l == LayoutA { // a state's words are contiguous
				words = dev[s*wp : s*wp+st.Words]
			} else {
				for w := range words {
					words[w] = dev[layoutIndex(l, s, w, st.N, wp)]
				}
			}
			accs := make([]Acc, len(rec.obs))
			for k, o := range rec.obs {
				o.observe(rec.p, words, &accs[k])
			}
			per[s] = accs
		}
	})
	rows := rec.rows
	if hold {
		rows = rec.tail
	}
	if t >= len(rows) {
		return
	}
	if rows[t] == nil {
		rows[t] = make([]Acc, len(rec.obs))
	}
	for _, accs := range per {
		for k := range accs {
			rows[t][k].merge(accs[k])
		}
	}
}

// recordArgs are cuda/rules.cu's RULES_RECORD_PARAMS.
type recordArgs struct {
	cur                       gpu.Ptr
	nstates, words, off, size int32
	isFloat, mode             int32
	than                      float64
	out                       gpu.Ptr
}

func recordKernel(l Layout) gpu.Kernel[recordArgs] {
	return gpu.Kernel[recordArgs]{Family: "rules", Name: "rules_record_" + string(l)}
}

// recordMode is rules_record's mode for o, and whether the device reduces
// it exactly as the host does: its values must be integers (an int field,
// a count, a comparison), since the device's order of float64 additions
// is not the host's.
func recordMode(p *Program, o Observable) (int32, bool) {
	if o.Cmp != "" {
		for k, c := range []string{"==", "!=", "<", "<=", ">", ">="} {
			if c == o.Cmp {
				return int32(2 + k), true
			}
		}
		return 0, false
	}
	if o.Reduce == ReduceCount {
		return 1, true
	}
	return 0, p.Fields[o.Field].Type == Int
}

// deviceRecorder reduces --record on the device (rules_record): a row of
// three int64 an observable (sum, least, greatest) for steps 0..steps and
// one more for the states held at their fixed points.
type deviceRecorder struct {
	r     *cudaRun
	f     gpu.Func[recordArgs]
	obs   []Observable
	modes []int32
	steps int
	out   *gpu.Buffer[int64]
	grid  gpu.Dim3
}

// newDeviceRecorder is nil (and no error) where an observable must be
// reduced on the host.
func newDeviceRecorder(r *cudaRun, obs []Observable, steps int) (*deviceRecorder, error) {
	d := &deviceRecorder{r: r, obs: obs, steps: steps}
	for _, o := range obs {
		m, ok := recordMode(r.p, o)
		if !ok {
			return nil, nil
		}
		d.modes = append(d.modes, m)
	}
	var err error
	if d.f, err = recordKernel(r.layout).Load(r.dev); err != nil {
		return nil, err
	}
	init := make([]int64, 0, 3*(steps+2)*len(obs))
	for range (steps + 2) * len(obs) {
		init = append(init, 0, math.MaxInt64, math.MinInt64)
	}
	if d.out, err = gpu.Upload(r.dev, init); err != nil {
		return nil, err
	}
	sms := max(r.dev.Info().SMs, 1)
	var size int64 = 1
	for _, o := range obs {
		size = max(size, int64(r.p.Fields[o.Field].Size))
	}
	gx := tileGrid(size, sms)
	d.grid = gpu.Dim3{X: uint32(gx), Y: uint32(max(1, min(r.n, 65535, 32*sms/gx))), Z: 1}
	return d, nil
}

// observe queues the reduction of the states as they are into row t.
func (d *deviceRecorder) observe(t int) error {
	r := d.r
	for k, o := range d.obs {
		f := r.p.Fields[o.Field]
		isFloat := int32(0)
		if f.Type == Float {
			isFloat = 1
		}
		if err := d.f.Launch(d.grid, gpu.Dim(ptx.SimpleBlock), 0, recordArgs{r.cur.Ptr(), int32(r.n), int32(r.wp),
			int32(f.Off), int32(f.Size), isFloat, d.modes[k], o.Than, d.out.PtrAt(3 * (t*len(d.obs) + k))}); err != nil {
			return err
		}
	}
	return nil
}

// finish fills rec from the device's rows: steps 0..ran as they ran and,
// when the run stopped early (every state at its fixed point), the held
// row, queued here, for ran+1 on.
func (d *deviceRecorder) finish(rec *recorder, ran int) error {
	hold := d.steps + 1
	if ran < d.steps {
		if err := d.observe(hold); err != nil {
			return err
		}
	}
	out, err := d.out.Download()
	if err != nil {
		return err
	}
	row := func(t int) []Acc {
		accs := make([]Acc, len(d.obs))
		for k, o := range d.obs {
			n := int64(d.r.n) * int64(d.r.p.Fields[o.Field].Size)
			if n == 0 {
				continue // the host's merge of nothing
			}
			v := out[3*(t*len(d.obs)+k):]
			accs[k] = Acc{Sum: float64(v[0]), N: n, Min: float64(v[1]), Max: float64(v[2])}
		}
		return accs
	}
	for t := 0; t <= ran && t < len(rec.rows); t++ {
		rec.rows[t] = row(t)
	}
	if ran < d.steps {
		rec.tail[ran+1] = row(hold)
	}
	return nil
}

func (d *deviceRecorder) free() {
	if d != nil && d.out != nil {
		d.out.Free()
	}
}
