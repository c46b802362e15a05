// Package calc adds numbers, for the corpus's go test run.
package calc

// Add returns a + b.
func Add(a, b int) int { return a + b }
