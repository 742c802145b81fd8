package rules

import "sort"

func sortTrace(tr []TraceRecord) {
	sort.Slice(tr, func(a, b int) bool {
		if tr[a].Step != tr[b].Step {
			return tr[a].Step < tr[b].Step
		}
		return tr[a].State < tr[b].State
	})
}
