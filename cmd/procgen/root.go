package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/output"
)

// app is everything a command needs from the process: its streams, the one
// configuration, the logger. It replaces package-level state, so that run can
// be called many times in one process (the tests do).
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	v              *viper.Viper
	log            *logger
	opts           globalOptions
	// flags maps a configuration key to the flag bound to it, to tell
	// "set by flag" from "flag default" (config show --origin).
	flags map[string]*pflag.Flag
	// configFile is the config file that was read, "" when none was.
	configFile string
	// started is set when a command's own code starts running: an error
	// from cobra before that point is a usage error.
	started bool
	// bars are the progress bars drawn, cleared before an error is shown.
	barsMu sync.Mutex
	bars   []*progressbar.ProgressBar
	// dev is the run's --device policy, set up with the options.
	dev *device.Policy
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	a := &app{
		stdin:  stdin,
		stdout: stdout,
		stderr: stderr,
		v:      viper.New(),
		flags:  map[string]*pflag.Flag{},
	}
	a.log = &logger{w: stderr}
	a.dev = device.New(device.Settings{}, a.log) // replaced once the options are read
	a.v.SetEnvPrefix(envPrefix)
	a.v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	a.v.AutomaticEnv()
	for _, k := range configKeys() {
		a.v.SetDefault(k.Key, k.Default)
		// AutomaticEnv alone is invisible to Unmarshal/AllSettings; binding
		// each known key makes env values part of the effective config.
		_ = a.v.BindEnv(k.Key)
	}
	return a
}

const rootLong = `procgen is a suite of procedural generators (fractal flames, L-systems,
procedural cities, forests, cellular rules) that run on an NVIDIA GPU through
CUDA when one is available, and on the CPU otherwise. Results go to files or
stdout; logs and progress go to stderr.

Device selection:
  --device auto   use CUDA when this binary was built with it and a GPU opens,
                  else the CPU, quietly (-v says why)
  --device cpu    always the CPU
  --device cuda   CUDA or fail with exit code 3; 'procgen devices' says what
                  is missing

Configuration: every setting has a dotted key (device, seed, flame.quality ...).
Its value comes from, highest precedence first:
  1. a command-line flag (kebab-case: --device, --seed)
  2. an environment variable PROCGEN_<KEY>, dots as underscores
     (PROCGEN_DEVICE, PROCGEN_FLAME_QUALITY)
  3. a YAML config file: --config FILE, else ./procgen.yaml, else
     $XDG_CONFIG_HOME/procgen/config.yaml (~/.config/procgen/config.yaml);
     an unknown key in it is an error
  4. the built-in default
'procgen config show --origin' prints the effective values and their sources.

Shell completion: 'procgen completion bash|zsh|fish|powershell --help'.

` + exitCodeHelp

// newRootCmd builds the whole command tree, fresh for every run.
func (a *app) newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "procgen",
		Short:         "Procedural generators on the GPU, with a CPU fallback",
		Long:          rootLong,
		SilenceUsage:  true, // run prints a one-line hint instead of the usage
		SilenceErrors: true, // run prints errors, one line, with the exit code
		// A runnable root with Args lets an unknown command fail in our
		// validator (one line, with suggestions) rather than in cobra's.
		Args: noSubcommand,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return a.setup(cmd)
		},
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{Err: describeFlagError(err)} })

	pf := root.PersistentFlags()
	a.bindFlag(pf, "device", "device", "")
	a.bindFlag(pf, "devices", "devices", "")
	a.bindFlag(pf, "seed", "seed", "")
	a.bindFlag(pf, "quiet", "quiet", "q")
	pf.CountP("verbose", "v", configKeyHelp("verbose")+" ["+envName("verbose")+"]")
	a.bind(pf, "verbose", "verbose")
	a.bindFlag(pf, "sync", "sync", "")
	a.bindFlag(pf, "fsync", "fsync", "")
	a.bindFlag(pf, "jit", "jit", "")
	a.bindFlag(pf, "max-memory", "max-memory", "")
	a.bindFlag(pf, "calibration", "calibration", "")
	pf.String("config", "", "read configuration from `FILE` (YAML) instead of ./procgen.yaml or $XDG_CONFIG_HOME/procgen/config.yaml")
	_ = root.RegisterFlagCompletionFunc("device", cobra.FixedCompletions(
		[]string{"auto", "cpu", "cuda"}, cobra.ShellCompDirectiveNoFileComp))

	root.AddCommand(
		a.newVersionCmd(),
		a.newConfigCmd(),
		a.newDevicesCmd(),
		a.newCompareCmd(),
		a.newFlameCmd(),
		a.newLsysCmd(),
		a.newForestCmd(),
		a.newPgaCmd(),
		a.newRulesCmd(),
	)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			// Shell start-up files source this: it must work whatever the
			// config file holds, and a mistyped shell is a usage error.
			c.Annotations = map[string]string{annotationNoConfig: "yes"}
			c.Args = noSubcommand
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
	}
	for _, c := range root.Commands() {
		contractHelp(c)
	}
	markStarted(root, &a.started)
	return root
}

// contractHelp gives every command the same contract: a command that only
// holds subcommands rejects a mistyped one (exit 2, with a suggestion)
// instead of printing help and exiting 0, and every command's --help ends
// with the exit-code table.
func contractHelp(cmd *cobra.Command) {
	if cmd.HasSubCommands() && cmd.Run == nil && cmd.RunE == nil {
		cmd.Args = noSubcommand
		cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
	if !strings.Contains(cmd.Long, "Exit codes:") {
		long := cmd.Long
		if long == "" {
			long = cmd.Short + "."
		}
		cmd.Long = long + "\n\n" + exitCodeHelp
	}
	for _, c := range cmd.Commands() {
		contractHelp(c)
	}
}

// markStarted wraps every RunE in the tree to record that cobra has finished
// parsing and validating, so run can tell usage errors from failures.
func markStarted(cmd *cobra.Command, started *bool) {
	if f := cmd.RunE; f != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			*started = true
			return f(c, args)
		}
	}
	for _, c := range cmd.Commands() {
		markStarted(c, started)
	}
}

// noSubcommand is the Args of a command whose only job is to hold
// subcommands: any argument is a mistyped subcommand.
func noSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return usageError{Err: errors.New(msg)}
}

// globalOptions are the settings every command shares.
type globalOptions struct {
	Device string `mapstructure:"device"`
	// Devices is "all" or a list of GPU ordinals (device.ParseDevices).
	Devices string `mapstructure:"devices"`
	Seed    uint64 `mapstructure:"seed"`
	Quiet   bool   `mapstructure:"quiet"`
	Verbose int    `mapstructure:"verbose"`
	Sync    bool   `mapstructure:"sync"`
	// Fsync is the output.FsyncPolicy by name.
	Fsync string `mapstructure:"fsync"`
	JIT   string `mapstructure:"jit"`
	// MaxMemory is "auto" or a size (parseSize).
	MaxMemory string `mapstructure:"max-memory"`
	// Calibration is the host calibration file, "" for the default
	// path or device.CalibrationNone.
	Calibration string `mapstructure:"calibration"`
}

// jitPolicy maps the validated --jit setting to the device's policy.
func (o globalOptions) jitPolicy() gpu.JITPolicy {
	switch o.JIT {
	case "always":
		return gpu.JITAlways
	case "never":
		return gpu.JITNever
	}
	return gpu.JITCached
}

func (o globalOptions) validate(a *app) error {
	switch o.Device {
	case "auto", "cpu", "cuda":
	default:
		return usageErrorf("invalid %s %q: want auto, cpu or cuda", a.settingName("device"), o.Device)
	}
	if _, _, err := device.ParseDevices(o.Devices); err != nil {
		return usageErrorf("invalid %s %q: %v", a.settingName("devices"), o.Devices, err)
	}
	if _, err := output.ParseFsync(o.Fsync); err != nil {
		return usageErrorf("invalid %s %q: %v", a.settingName("fsync"), o.Fsync, err)
	}
	switch o.JIT {
	case "cached", "always", "never":
	default:
		return usageErrorf("invalid %s %q: want cached, always or never", a.settingName("jit"), o.JIT)
	}
	if o.MaxMemory != "auto" {
		if _, err := parseSize(o.MaxMemory); err != nil {
			return usageErrorf("invalid %s %q: %v", a.settingName("max-memory"), o.MaxMemory, err)
		}
	}
	if o.Verbose < 0 {
		return usageErrorf("invalid %s %d: want 0 or more", a.settingName("verbose"), o.Verbose)
	}
	return nil
}

// noArgs is cobra.NoArgs with a message that does not call the argument a command.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// setup runs before every command: it reads the config file, decodes and
// validates the global options and configures the logger.
func (a *app) setup(cmd *cobra.Command) error {
	// Cobra has parsed the command line: from here on every error is ours,
	// one line that names the setting (no usage hint).
	a.started = true
	for c := cmd; c != nil; c = c.Parent() {
		if c.Annotations[annotationNoConfig] != "" || c.Name() == cobra.ShellCompRequestCmd ||
			c.Name() == cobra.ShellCompNoDescRequestCmd {
			return nil
		}
	}
	if err := a.bindFlags(cmd); err != nil {
		return err
	}
	configFlag, _ := cmd.Flags().GetString("config")
	if err := a.readConfig(cmd.Context(), configFlag); err != nil {
		return asUsage(err)
	}
	// Check every key's type first: the error then names the setting the
	// way the user wrote it (--seed, PROCGEN_SEED, seed in the file).
	for _, k := range configKeys() {
		if _, err := a.typedValue(k); err != nil {
			return asUsage(err)
		}
	}
	if err := a.decode("", &a.opts); err != nil {
		return asUsage(err)
	}
	if err := a.opts.validate(a); err != nil {
		return asUsage(err)
	}
	fsync, _ := output.ParseFsync(a.opts.Fsync) // validated above
	cmd.SetContext(output.WithFsync(cmd.Context(), fsync))
	a.log = &logger{w: a.stderr, quiet: a.opts.Quiet, verbose: a.opts.Verbose}
	a.dev = device.New(device.Settings{Device: a.opts.Device, Devices: a.opts.Devices, Sync: a.opts.Sync,
		JIT: a.opts.jitPolicy(), Calibration: a.opts.Calibration, Name: a.settingName}, a.log)
	if a.configFile != "" {
		a.log.Debugf("config file %s", a.configFile)
	}
	return nil
}

// annotationNoConfig marks commands that must work whatever the config file
// holds (shell completion is sourced from shell start-up files).
const annotationNoConfig = "procgen/no-config"

// readConfig finds and reads the config file and rejects keys it does not know.
func (a *app) readConfig(ctx context.Context, explicit string) error {
	path := explicit
	if path == "" {
		path = defaultConfigFile()
		if path == "" {
			return nil
		}
	} else if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("config file %s: %w", path, errors.Unwrap(err))
	}
	// Read through input, not viper: bounded (--config /dev/zero is a usage
	// error, not 17 GB), cancellable (a FIFO), a BOM dropped.
	data, err := input.ReadFile(ctx, path, input.Config)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	a.v.SetConfigFile(path)
	a.v.SetConfigType("yaml")
	if err := a.v.ReadConfig(bytes.NewReader(data)); err != nil {
		return fmt.Errorf("config file %s", describeConfigError(path, err))
	}
	a.configFile = path
	known := map[string]bool{}
	for _, k := range configKeys() {
		known[k.Key] = true
	}
	var unknown []string
	for _, k := range a.v.AllKeys() {
		if !known[k] && a.v.InConfig(k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		for i, k := range unknown {
			unknown[i] = strconv.Quote(k)
		}
		return fmt.Errorf("config file %s: unknown key %s ('procgen config show' lists the known keys)",
			path, strings.Join(unknown, ", "))
	}
	return nil
}

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// describeConfigError turns viper's "While parsing config: yaml: line 3: ..."
// into "procgen.yaml:3: ...".
func describeConfigError(path string, err error) string {
	var pe viper.ConfigParseError
	if !errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", path, err)
	}
	msg := pe.Unwrap().Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			return fmt.Sprintf("%s:%s: invalid YAML: %s", path, m[1], m[2])
		}
		return fmt.Sprintf("%s: invalid YAML: %s", path, m[2])
	}
	return fmt.Sprintf("%s: invalid YAML: %s", path, msg)
}

// defaultConfigFile is ./procgen.yaml, else the user's config file, else "".
func defaultConfigFile() string {
	candidates := []string{"procgen.yaml"}
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".config")
		}
	}
	if dir != "" {
		candidates = append(candidates, filepath.Join(dir, "procgen", "config.yaml"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	return ""
}
