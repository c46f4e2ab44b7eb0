# Shell completion for nb2lite: printed by the built binary from its own command table,
# so it never drifts from the parser; installed where Debian's bash-completion and zsh look.
if(TARGET nb2lite)
    set(NB2_COMPLETIONS ${PROJECT_BINARY_DIR}/completions)
    add_custom_command(
        OUTPUT ${NB2_COMPLETIONS}/nb2lite ${NB2_COMPLETIONS}/_nb2lite
        COMMAND ${CMAKE_COMMAND} -E make_directory ${NB2_COMPLETIONS}
        COMMAND sh -c "\"$0\" completion bash > \"$1\" && \"$0\" completion zsh > \"$2\""
                $<TARGET_FILE:nb2lite> ${NB2_COMPLETIONS}/nb2lite ${NB2_COMPLETIONS}/_nb2lite
        DEPENDS nb2lite
        COMMENT "Generating the bash and zsh completion of nb2lite"
        VERBATIM)
    add_custom_target(nb2lite_completions ALL DEPENDS ${NB2_COMPLETIONS}/nb2lite ${NB2_COMPLETIONS}/_nb2lite)
    install(FILES ${NB2_COMPLETIONS}/nb2lite DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
    install(FILES ${NB2_COMPLETIONS}/_nb2lite DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
endif()
