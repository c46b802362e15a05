package node

// ListingAcrossStreams is listingAcrossStreams, for block_test.go.
var ListingAcrossStreams = listingAcrossStreams
