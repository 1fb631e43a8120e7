import Foundation

/// How one ``Persisted`` turns its value into a stored object and back.
struct _PersistedCoding<Value: Sendable>: Sendable {
    /// The stored form, named in diagnostics; two `Persisted` for one key must agree on it.
    enum Format: String, Sendable {
        case propertyList = "a property-list value"
        case json = "JSON data"
        case rawValue = "its raw value"
    }

    /// Why a stored object does not decode.
    struct Failure: Error {
        let reason: String
    }

    let format: Format
    let encode: @Sendable (Value) -> Any
    /// Throws a ``Failure`` for an object that does not convert exactly.
    let decode: @Sendable (Any) throws(Failure) -> Value
    /// Whether two values are stored as exactly the same object, so that saving the second
    /// over the first changes nothing; `nil` when that cannot be known without encoding.
    /// Called without the entry's lock held: a raw value's `rawValue` is user code.
    let isSameStored: (@Sendable (Value, Value) -> Bool)?

    /// Stores property-list values as they are.
    static func propertyList() -> Self where Value: PropertyListValue {
        Self(
            format: .propertyList,
            encode: { $0 },
            decode: { object throws(Failure) in
                guard let value = Value._fromPropertyList(object) else {
                    throw Failure(reason: "it does not convert exactly")
                }
                return value
            },
            isSameStored: { _isIdenticalPropertyList($0, $1) }
        )
    }

    /// Stores the raw value, as a property-list value.
    static func rawValue() -> Self where Value: RawRepresentable, Value.RawValue: PropertyListValue {
        Self(
            format: .rawValue,
            encode: { $0.rawValue },
            decode: { object throws(Failure) in
                guard let rawValue = Value.RawValue._fromPropertyList(object) else {
                    throw Failure(reason: "it is not exactly a raw value of type \(Value.RawValue.self)")
                }
                guard let value = Value(rawValue: rawValue) else {
                    throw Failure(reason: "no value of the type has this raw value")
                }
                return value
            },
            isSameStored: { _isIdenticalPropertyList($0.rawValue, $1.rawValue) }
        )
    }

    /// Stores JSON data; stops the program with a message naming `key` for a value that
    /// cannot be encoded (a programming error, like a `Codable` conformance that throws).
    static func json(key: String) -> Self where Value: Codable {
        Self(
            format: .json,
            encode: { value in
                do {
                    return try _PersistedJSON.encoder().encode(value)
                } catch {
                    fatalError("Ripple: Persisted '\(key)' cannot encode \(value) as JSON: \(error)")
                }
            },
            decode: { object throws(Failure) in
                guard let data = object as? Data else { throw Failure(reason: "it is not JSON data") }
                do {
                    return try _PersistedJSON.decoder().decode(Value.self, from: data)
                } catch {
                    throw Failure(reason: _PersistedJSON.describe(error))
                }
            },
            // A `Codable` type's `==` may ignore what its encoding keeps (a record compared by
            // its identifier): every write is saved.
            isSameStored: nil
        )
    }
}

/// Whether two property-list objects are exactly the same data: of one type, with the same
/// bits for numbers and dates (`-0.0` is not `0.0`), the same Unicode scalars for strings (not
/// only canonically equivalent ones), element by element for arrays and dictionaries. `false`
/// for any other type (one conforming to ``PropertyListValue`` outside Ripple): not known to be
/// the same.
func _isIdenticalPropertyList(_ lhs: Any, _ rhs: Any) -> Bool {
    // By exact type, not by cast: a cast may bridge one number type to another (1.0 as `Int`).
    let kind = type(of: lhs)
    guard kind == type(of: rhs) else { return false }
    if kind == String.self { return (lhs as! String).unicodeScalars.elementsEqual((rhs as! String).unicodeScalars) }
    if kind == Double.self { return (lhs as! Double).bitPattern == (rhs as! Double).bitPattern }
    if kind == Float.self { return (lhs as! Float).bitPattern == (rhs as! Float).bitPattern }
    if kind == Int.self { return lhs as! Int == rhs as! Int }
    if kind == Int64.self { return lhs as! Int64 == rhs as! Int64 }
    if kind == Bool.self { return lhs as! Bool == rhs as! Bool }
    if kind == Data.self { return lhs as! Data == rhs as! Data }
    if kind == Date.self {
        return (lhs as! Date).timeIntervalSinceReferenceDate.bitPattern
            == (rhs as! Date).timeIntervalSinceReferenceDate.bitPattern
    }
    if let lhs = lhs as? [Any], let rhs = rhs as? [Any] {
        return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy(_isIdenticalPropertyList)
    }
    if let lhs = lhs as? [String: Any], let rhs = rhs as? [String: Any] {
        guard lhs.count == rhs.count else { return false }
        return lhs.allSatisfy { key, value in
            guard let index = rhs.index(forKey: key) else { return false }
            let (otherKey, other) = rhs[index]
            return key.unicodeScalars.elementsEqual(otherKey.unicodeScalars) && _isIdenticalPropertyList(value, other)
        }
    }
    return false
}

/// The JSON coders of ``Persisted``: non-finite floating-point values are written as strings
/// (`"inf"`, `"-inf"`, `"nan"`) instead of failing.
enum _PersistedJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// A short reason for a decoding error: what is missing or wrong, and where.
    static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "" : " at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "missing key '\(key.stringValue)'\(path(context))"
        case .typeMismatch(let type, let context)?:
            return "not a \(type)\(path(context))"
        case .valueNotFound(let type, let context)?:
            return "missing \(type) value\(path(context))"
        case .dataCorrupted(let context)?:
            return "\(context.debugDescription)\(path(context))"
        default:
            return "\(error)"
        }
    }
}
