// Package pricefeed polls a supplier's price list and reports changes.
package pricefeed

import (
	"fmt"
	"time"
)

// Quote is one supplier price for an ISBN.
type Quote struct {
	ISBN       string
	PriceCents int
}

// Feed polls a supplier at a fixed interval.
type Feed struct {
	Interval time.Duration
	last     map[string]int
}

// NewFeed returns a feed that polls every interval.
func NewFeed(interval time.Duration) *Feed {
	return &Feed{Interval: interval, last: map[string]int{}}
}

// Changes returns the quotes whose price differs from the previous poll.
func (f *Feed) Changes(quotes []Quote) []Quote {
	var changed []Quote
	for _, q := range quotes {
		if previous, ok := f.last[q.ISBN]; !ok || previous != q.PriceCents {
			changed = append(changed, q)
		}
		f.last[q.ISBN] = q.PriceCents
	}
	return changed
}

// Describe formats a quote for logs.
func Describe(q Quote) string {
	return fmt.Sprintf("%s at %d cents", q.ISBN, q.PriceCents)
}
