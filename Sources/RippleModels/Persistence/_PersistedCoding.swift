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

    /// Stores property-list values as they are.
    static func propertyList() -> Self where Value: PropertyListValue {
        Self(format: .propertyList, encode: { $0 }, decode: { object throws(Failure) in
            guard let value = Value._fromPropertyList(object) else {
                throw Failure(reason: "it does not convert exactly")
            }
            return value
        })
    }

    /// Stores the raw value, as a property-list value.
    static func rawValue() -> Self where Value: RawRepresentable, Value.RawValue: PropertyListValue {
        Self(format: .rawValue, encode: { $0.rawValue }, decode: { object throws(Failure) in
            guard let rawValue = Value.RawValue._fromPropertyList(object) else {
                throw Failure(reason: "it is not exactly a raw value of type \(Value.RawValue.self)")
            }
            guard let value = Value(rawValue: rawValue) else {
                throw Failure(reason: "no value of the type has this raw value")
            }
            return value
        })
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
            }
        )
    }
}

/// The JSON coders of ``Persisted``: non-finite floating-point values are written as strings
/// (`"inf"`, `"-inf"`, `"nan"`) instead of failing.
enum _PersistedJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
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
