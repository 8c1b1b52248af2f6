# What `cmake --graphviz` draws (scripts/module-graph): the project's own
# libraries and programs, not the tests, link checks or external libraries.
set(GRAPHVIZ_EXTERNAL_LIBS FALSE)
set(GRAPHVIZ_GENERATE_PER_TARGET FALSE)
set(GRAPHVIZ_GENERATE_DEPENDERS FALSE)
set(GRAPHVIZ_IGNORE_TARGETS "^Test" "^tst_" "linkcheck" "watchword_flags" "_autogen" "_qmltyperegistration" "plugin")
