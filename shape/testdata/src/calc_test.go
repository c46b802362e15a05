package calc

import (
	"fmt"
	"testing"
)

// TestAdd runs 3000 cases of Add; one of them is wrong on purpose.
func TestAdd(t *testing.T) {
	for i := 0; i < 3000; i++ {
		want := i + i
		if i == 1717 {
			want = i + i + 1
		}
		t.Run(fmt.Sprintf("case_%04d", i), func(t *testing.T) {
			if got := Add(i, i); got != want {
				t.Errorf("Add(%d, %d) = %d, want %d", i, i, got, want)
			}
		})
	}
}
