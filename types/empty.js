// The run-time side of the type-only subpaths (`lmskit/types/v1`, …): nothing. It exists so that a
// bundler or Node meeting an import of them that the compiler did not erase finds a module.
export {};
