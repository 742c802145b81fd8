// Package cuburn reads cuburn's flock format: the JSON node, edge and
// profile documents of Electric Sheep's cuburn renderer. It resolves a
// document's links into its flock (base nodes, inherited values), checks
// every value against cuburn's parameter table, blends an edge's two nodes
// (or a node's loop) into one spline per parameter, and evaluates those
// splines into flame genomes and motion-blurred frames (flame.FrameSpec)
// at any time of the edge, timed by a render profile.
//
// It is a parser and an interpolator, not a renderer: the frames it builds
// are drawn by flame's frame renderers (flame.CPU, flame.CUDA), and the
// animation pipeline that picks frames, renders and writes them is
// flame/anim. Package flame does not import this one.
package cuburn
