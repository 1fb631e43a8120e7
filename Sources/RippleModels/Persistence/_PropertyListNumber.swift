import Foundation

/// A number as a property-list store holds it, with exact conversions to the numeric types
/// ``Persisted`` reads.
///
/// Stores hold numbers as Swift values (an in-memory store, `UserDefaults` on Linux) or as
/// `NSNumber` (`UserDefaults` on Apple platforms), and return arrays read back from disk with
/// `Optional` elements on Linux. Both are classified here by what the number *is* (a boolean,
/// an integer, a binary floating-point number) so that a conversion can refuse anything that is
/// not exact: an `Int` key holding 3.7 or 1e300, a `Bool` key holding 2.
enum _PropertyListNumber {
    case boolean(Bool)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case float(Float)
    case double(Double)

    /// Classifies `object`, or returns `nil` if it is not a number (a string, data, a date…).
    init?(_ object: Any) {
        // Swift values first, by their exact type: no bridging, and fast for long arrays.
        let type = type(of: object)
        if type == Int.self { self = .integer(Int64(object as! Int)); return }
        if type == Double.self { self = .double(object as! Double); return }
        if type == Bool.self { self = .boolean(object as! Bool); return }
        if type == Int64.self { self = .integer(object as! Int64); return }
        if type == Float.self { self = .float(object as! Float); return }
        // NSNumber (and, on Linux, other Swift numbers and Optional-wrapped ones, which bridge
        // to it): classified by the C type it was created from.
        guard !(object is String), let number = object as? NSNumber else { return nil }
        switch number.objCType.pointee {
        case CChar(UInt8(ascii: "c")), CChar(UInt8(ascii: "B")):
            // Booleans are `char` numbers; a `char` holding anything but 0 or 1 is an integer.
            let value = number.int64Value
            self = value == 0 || value == 1 ? .boolean(value == 1) : .integer(value)
        case CChar(UInt8(ascii: "q")), CChar(UInt8(ascii: "l")), CChar(UInt8(ascii: "i")), CChar(UInt8(ascii: "s")):
            self = .integer(number.int64Value)
        case CChar(UInt8(ascii: "Q")), CChar(UInt8(ascii: "L")), CChar(UInt8(ascii: "I")), CChar(UInt8(ascii: "S")),
            CChar(UInt8(ascii: "C")):
            self = .unsignedInteger(number.uint64Value)
        case CChar(UInt8(ascii: "f")):
            self = .float(number.floatValue)
        case CChar(UInt8(ascii: "d")):
            self = .double(number.doubleValue)
        default:
            return nil
        }
    }

    /// The boolean: a boolean, or the integer 0 or 1.
    var exactBool: Bool? {
        switch self {
        case .boolean(let value): value
        case .integer(let value) where value == 0 || value == 1: value == 1
        case .unsignedInteger(let value) where value == 0 || value == 1: value == 1
        default: nil
        }
    }

    /// The integer, if the number is one in `Int64`'s range (3.0 is; 3.7, 1e300 and booleans
    /// are not).
    var exactInt64: Int64? {
        switch self {
        case .boolean: nil
        case .integer(let value): value
        case .unsignedInteger(let value): Int64(exactly: value)
        case .float(let value): Int64(exactly: value)
        case .double(let value): Int64(exactly: value)
        }
    }

    /// The double, if the number is exactly one (every float is; integers beyond 2⁵³ that
    /// would round, and booleans, are not).
    var exactDouble: Double? {
        switch self {
        case .boolean: nil
        case .integer(let value): Double(exactly: value)
        case .unsignedInteger(let value): Double(exactly: value)
        case .float(let value): Double(value)
        case .double(let value): value
        }
    }

    /// The float, if the number is one: a float, a double that holds a float's value exactly
    /// or is the shortest decimal form of one (0.1 read back from text), or an integer a float
    /// holds exactly. A double out of `Float`'s range (which would become infinity) is not.
    var exactFloat: Float? {
        switch self {
        case .boolean: return nil
        case .integer(let value): return Float(exactly: value)
        case .unsignedInteger(let value): return Float(exactly: value)
        case .float(let value): return value
        case .double(let value):
            if value.isNaN { return .nan }
            if let exact = Float(exactly: value) { return exact }
            let nearest = Float(value)
            guard nearest.isFinite, Double("\(nearest)") == value else { return nil }
            return nearest
        }
    }

    /// A short description for diagnostics: the kind of number and its value.
    var description: String {
        switch self {
        case .boolean(let value): "Bool (\(value))"
        case .integer(let value): "Int (\(value))"
        case .unsignedInteger(let value): "UInt (\(value))"
        case .float(let value): "Float (\(value))"
        case .double(let value): "Double (\(value))"
        }
    }
}

/// Describes a stored property-list object for a diagnostic: its type, and its value for a
/// number (strings and data are not printed, they may be private).
func _describeStoredObject(_ object: Any) -> String {
    if let number = _PropertyListNumber(object) { return number.description }
    if object is String { return "String" }
    if let data = object as? Data { return "Data (\(data.count) bytes)" }
    if object is Date { return "Date" }
    if let array = object as? [Any] { return "Array (\(array.count) elements)" }
    if let dictionary = object as? [String: Any] { return "Dictionary (\(dictionary.count) entries)" }
    return String(describing: type(of: object))
}
