package classify

// MergesStreams is mergesStreams, for the fuzz test's oracle.
var MergesStreams = mergesStreams
