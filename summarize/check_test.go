package summarize

import (
	"testing"
)

// TestPanickingRule: a rule that panics gives no block, so the caller
// prints the raw output; the process never dies on a rule's bug.
func TestPanickingRule(t *testing.T) {
	bug := func(*Run) *Body { panic("bug") }
	if block, ok := Block(&Run{Rule: "bash.test_panic", Stdout: []byte("x\n")}, bug, nil); ok || block != nil {
		t.Fatalf("got %q, %v", block, ok)
	}
}
