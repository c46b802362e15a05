package git

// SharedDiff is sharedDiff, for block_test.go.
var SharedDiff = sharedDiff
