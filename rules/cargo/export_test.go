package cargo

// ClippyLint is clippyLint, for block_test.go.
var ClippyLint = clippyLint
