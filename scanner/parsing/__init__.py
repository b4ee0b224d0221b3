"""Reading a file: libclang translation units with stubbed headers and the hermetic prelude, the token view every
rule shares, compile_commands.json. Imports scanner.model and scanner.data only; never a rule."""
