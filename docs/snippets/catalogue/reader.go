// Usage: go run reader.go catalogue.json BACKEND CODE
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type Decision struct {
	Kind          string `json:"kind"`
	Category      string `json:"category"`
	Retryable     bool   `json:"retryable"`
	Action        string `json:"action"`
	RetrySafety   string `json:"retry_safety"`
	RetryAfterMs  *int   `json:"retry_after_ms"`
	ToolErrorType string `json:"tool_error_type"`
	JSONRPCCode   int    `json:"jsonrpc_code"`
}

type Catalogue struct {
	SchemaVersion int                 `json:"schema_version"`
	Kinds         map[string]Decision `json:"kinds"`
	Backends      []struct {
		Name    string              `json:"name"`
		Aliases []string            `json:"aliases"`
		Codes   map[string]Decision `json:"codes"`
	} `json:"backends"`
}

func (c *Catalogue) Decide(db, code string) Decision {
	db = strings.ToLower(db)
	for _, b := range c.Backends {
		for _, name := range append([]string{b.Name}, b.Aliases...) {
			if d, ok := b.Codes[code]; ok && name == db {
				return d
			}
		}
	}
	// A code the catalogue does not list: the Kind table's "unknown" row.
	d := c.Kinds["unknown"]
	d.Kind = "unknown"
	return d
}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	var c Catalogue
	if err == nil {
		err = json.Unmarshal(raw, &c)
	}
	if err != nil || c.SchemaVersion != 1 {
		fmt.Fprintln(os.Stderr, "unreadable catalogue:", err)
		os.Exit(1)
	}
	out, _ := json.Marshal(c.Decide(os.Args[2], os.Args[3]))
	fmt.Println(string(out))
}
