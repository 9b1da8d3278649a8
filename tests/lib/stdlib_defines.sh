# tests/lib/stdlib_defines.sh: the constants a stdlib profile leaves to its
# user (wardc compile -D, docs/spec.md 1.9), set as its header's example
# sets them, for the suites that compile every profile. Sourced.
#
#   stdlib_defines NAME.ward    prints the -D options (nothing for most)
stdlib_defines() {
	case ${1##*/} in
	pip-install.ward) echo "-D pip_index=pypi.org -D pip_files=files.pythonhosted.org" ;;
	esac
}
