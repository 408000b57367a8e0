package app

import "github.com/juncture-app/juncture/app/answers"

// The window's answers to a paused thread (package answers).
type (
	AnswerBatch      = answers.AnswerBatch      // what the person answered
	ItemAnswer       = answers.ItemAnswer       // one interrupt's answer
	ClientToolAnswer = answers.ClientToolAnswer // an action the window ran
	AnswerResult     = answers.AnswerResult     // what an answer did
	RememberScope    = answers.RememberScope    // an "Always allow" or "Never" choice
)
