package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// Set at link time: go build -ldflags "-X main.version=v1.2.0 -X main.commit=abc -X main.date=2025-01-02T03:04:05Z".
// Empty or "dev" falls back to what the Go toolchain recorded in the binary.
var (
	version = "dev"
	commit  = ""
	date    = ""
)

type versionInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Date      string `json:"date,omitempty"`
	GoVersion string `json:"go_version"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
	CUDA      bool   `json:"built_with_cuda"`
}

func buildVersionInfo() versionInfo {
	vi := versionInfo{
		Version: version, Commit: commit, Date: date,
		GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
		CUDA: gpu.BuiltWithCUDA,
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return vi
	}
	if (vi.Version == "" || vi.Version == "dev") && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		vi.Version = bi.Main.Version // go install ...@v1.2.0
	}
	if vi.Version == "" {
		vi.Version = "dev"
	}
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if vi.Commit == "" {
				vi.Commit = s.Value
			}
		case "vcs.time":
			if vi.Date == "" {
				vi.Date = s.Value
			}
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && commit == "" && vi.Commit != "" {
		vi.Commit += "-dirty"
	}
	return vi
}

func (a *app) newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print version, build and platform information",
		Args:  noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			vi := buildVersionInfo()
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(vi)
			}
			orUnknown := func(s string) string {
				if s == "" {
					return "unknown"
				}
				return s
			}
			cuda := "no (pure-Go build; CPU only)"
			if vi.CUDA {
				cuda = "yes"
			}
			_, err := fmt.Fprintf(a.stdout, "procgen %s\n  commit:    %s\n  built:     %s\n  go:        %s\n  platform:  %s/%s\n  cuda:      %s\n",
				vi.Version, orUnknown(vi.Commit), orUnknown(vi.Date), vi.GoVersion, vi.OS, vi.Arch, cuda)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
