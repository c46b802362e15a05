# caselib.sh is what the scripts that make the shipped rules' test cases
# share; each sources it after setting OUT, the rule's case directory,
# which it empties.
mkdir -p "$OUT"
rm -f "$OUT"/*.meta "$OUT"/*.stdout "$OUT"/*.stderr

# run CASE COMMAND: runs COMMAND (a shell string, as an agent types it)
# with its streams in CASE.stdout and CASE.stderr (left out when empty),
# and writes CASE.meta: the command and its exit status.
run() {
	local status=0 s
	bash -c "$2" >"$OUT/$1.stdout" 2>"$OUT/$1.stderr" || status=$?
	printf 'command: %s\nexit_code: %s\n' "$2" "$status" >"$OUT/$1.meta"
	for s in stdout stderr; do
		[ -s "$OUT/$1.$s" ] || rm -f "$OUT/$1.$s"
	done
}
