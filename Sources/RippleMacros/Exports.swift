// `import RippleMacros` is all a file that declares a `@RippleModel` needs: the code the macro
// generates names types from these three modules, and the model is used with their API
// (`observe`, `Computed`, bindings, `withObservationTracking`).
@_exported import Observation
@_exported import Ripple
@_exported import RippleModels
