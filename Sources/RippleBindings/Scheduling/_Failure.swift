/// Stops the program with a message that says what was wrong and where; printed in every build
/// mode (`fatalError`, not `preconditionFailure`: optimized builds drop a precondition's
/// message).
func _bindingsFailure(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("RippleBindings: " + message(), file: file, line: line)
}
