// A program that prints progress and then panics inside the standard
// library's sort, called with a comparison that indexes out of range.
package main

import (
	"fmt"
	"sort"
)

type order struct {
	id    int
	items []int
}

func main() {
	orders := make([]order, 3000)
	for i := range orders {
		orders[i] = order{id: i, items: make([]int, i%4)}
		fmt.Printf("loaded order %4d with %d items\n", i, len(orders[i].items))
	}
	sortByThirdItem(orders)
}

func sortByThirdItem(orders []order) {
	sort.Slice(orders, func(i, j int) bool {
		return orders[i].items[2] < orders[j].items[2]
	})
}
