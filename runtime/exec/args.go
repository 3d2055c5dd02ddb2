package exec

import "encoding/json"

// DecodeCommand returns the command line of the arguments {"command": "…"}
// exactly as Call decodes them; anything else is the 614 Call would return.
// It lets a dry run (package explain) see what Call would see.
func DecodeCommand(args json.RawMessage) (string, error) { return decodeArgs(args) }
