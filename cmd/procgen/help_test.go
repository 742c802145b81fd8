package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// The README's exit-code table and every command's --help print the same
// table, character for character.
func TestExitCodeTableEverywhere(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte(exitCodeHelp)) {
		t.Errorf("README.md does not hold the exit-code table of exit.go:\n%s", exitCodeHelp)
	}
	a := newApp(nil, &bytes.Buffer{}, &bytes.Buffer{})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || strings.HasPrefix(c.Name(), "__") {
			return
		}
		var out bytes.Buffer
		c.SetOut(&out)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), exitCodeHelp) {
			t.Errorf("%s --help lacks the exit-code table", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(a.newRootCmd())
}

// Every code the table documents is one exitCode can return, and back.
func TestExitCodesDocumented(t *testing.T) {
	for _, code := range []int{exitOK, exitFailure, exitUsage, exitNoDevice, exitInterrupted, exitBrokenPipe} {
		if !strings.Contains(exitCodeHelp, "\n  "+strconv.Itoa(code)+" ") {
			t.Errorf("exit code %d is not in the table", code)
		}
	}
}

// Every file the README's examples name under configs/ or testdata/ ships.
func TestReadmeExampleFilesExist(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?:^|[\s"'(])((?:configs|testdata)/[\w./-]*[\w/])`).FindAllSubmatch(readme, -1) {
		path := string(m[1])
		if _, err := os.Stat(filepath.Join("..", "..", path)); err != nil {
			t.Errorf("README names %s: %v", path, err)
		}
	}
}
