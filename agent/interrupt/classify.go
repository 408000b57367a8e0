package interrupt

// Item is one descriptor of a received batch as a client classifies it
// (spec §17), for display and for deciding what blocks new input.
type Item struct {
	Descriptor Descriptor
	// Class is the owner: tool-approval, client-tool-execution, generic or
	// unbound. A tool item that fails its correlation checks degrades to an
	// untyped generic item ("anything untrusted degrades to generic").
	Class   Classification
	Binding Binding // zero for unbound and legacy items
	// Typed is true for a tool approval, client tool or first-party generic
	// item whose binding fully correlates.
	Typed bool
	// Legacy marks a descriptor without binding that carries the legacy
	// metadata.kind marker (approval / client_tool); it is resumable.
	Legacy bool
	// Resumable items take part in the resume batch and block new input.
	Resumable bool
	// Hidden is true for client-tool executions (never listed publicly).
	Hidden bool
	// Problem explains why a bound-looking item cannot be answered ("" when
	// there is none); such items are shown, never answered.
	Problem string
}

// Problem texts of §17.
const (
	ProblemInvalidBinding      = "The interrupt binding is invalid or incomplete."
	ProblemRunMismatch         = "The interrupt binding does not match this interrupted run."
	ProblemDuplicateBatchIndex = "Generic interrupt batch contains a duplicate batchIndex."
)

// ClassifyBatch classifies the interrupts of one interrupt outcome, received
// for the request run interruptedRunID. The batch generation is the common
// binding generation (0 if any item lacks one or they differ).
//
// Unlike the reference client (defect D2), only resumable items block:
// unbound items — missing, malformed, foreign-version or unknown-kind
// bindings, including ones that merely look first-party — are display-only.
func ClassifyBatch(descs []Descriptor, interruptedRunID string) []Item {
	items := make([]Item, len(descs))
	bindings := make([]Binding, len(descs))
	bound := make([]bool, len(descs))
	generation, common := 0, true
	for i, d := range descs {
		var class Classification
		bindings[i], class = ReadBinding(d)
		bound[i] = class != ClassUnbound
		if !bound[i] || (i > 0 && bound[0] && bindings[i].Generation != bindings[0].Generation) {
			common = false
		}
	}
	if common && len(descs) > 0 && bound[0] {
		generation = bindings[0].Generation
	}
	indexCount := map[int]int{}
	for i, b := range bindings {
		if bound[i] && b.FirstParty() {
			indexCount[b.BatchIndex]++
		}
	}
	for i, d := range descs {
		items[i] = classifyOne(d, bindings[i], bound[i], interruptedRunID, generation, indexCount)
	}
	return items
}

func classifyOne(d Descriptor, b Binding, bound bool, runID string, generation int, indexCount map[int]int) Item {
	it := Item{Descriptor: d, Class: ClassUnbound}
	if !bound {
		if hasLegacyMarker(d) {
			it.Class, it.Legacy, it.Resumable = ClassGeneric, true, true
		} else if _, present := d.Metadata[BindingMetadataKey]; present {
			it.Problem = ProblemInvalidBinding
		}
		return it
	}
	it.Binding = b
	descHash := ""
	if d.ResponseSchema != nil {
		descHash, _ = DigestValue(d.ResponseSchema)
	}
	runMatches := b.InterruptedRunID == runID && b.Generation == generation
	structural := runMatches && (descHash == "" || descHash == b.ResponseSchemaHash)
	correlated := structural && descHash == b.ResponseSchemaHash

	switch {
	case b.FirstParty() && !structural:
		it.Class, it.Problem = ClassGeneric, ProblemRunMismatch
	case b.FirstParty() && indexCount[b.BatchIndex] > 1:
		it.Class, it.Problem = ClassGeneric, ProblemDuplicateBatchIndex
	case b.Kind == KindToolApproval && structural && d.ToolCallID == b.ToolCallID:
		it.Class, it.Typed, it.Resumable = ClassToolApproval, true, true
	case b.Kind == KindClientToolExecution && structural && d.ToolCallID == b.ToolCallID:
		it.Class, it.Typed, it.Resumable, it.Hidden = ClassClientToolExecution, true, true, true
	case b.FirstParty() && correlated:
		it.Class, it.Typed, it.Resumable = ClassGeneric, true, true
	default:
		// Untyped generic; tool items that failed their checks land here.
		it.Class = ClassGeneric
		it.Resumable = runMatches && (b.Kind != KindGeneric || correlated)
		if !it.Resumable {
			it.Problem = ProblemRunMismatch
		}
	}
	return it
}

// hasLegacyMarker: metadata.kind "approval"/"client_tool" with a string
// toolName and an input key.
func hasLegacyMarker(d Descriptor) bool {
	kind, _ := strMember(d.Metadata, "kind")
	if kind != PublicMetadataKindApproval && kind != PublicMetadataKindClientTool {
		return false
	}
	_, hasName := strMember(d.Metadata, "toolName")
	_, hasInput := d.Metadata["input"]
	return hasName && hasInput
}

// Blocking reports whether items must be answered before new input is
// accepted: true iff some item is resumable. Unbound items never block.
func Blocking(items []Item) bool {
	for _, it := range items {
		if it.Resumable {
			return true
		}
	}
	return false
}

// ResumableIDs lists the ids a complete resume must address.
func ResumableIDs(items []Item) []string {
	var ids []string
	for _, it := range items {
		if it.Resumable {
			ids = append(ids, it.Descriptor.ID)
		}
	}
	return ids
}
