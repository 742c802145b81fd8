//go:build !linux

package lsys

func adviseHugePages([]byte) {}
