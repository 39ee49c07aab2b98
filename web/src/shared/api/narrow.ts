/**
 * `T` with the fields of `N` replaced (not intersected): how a generated schema type is
 * narrowed to what the server documents but sends as a plain `string` (a kind, a state,
 * a currency), and how nested objects and arrays get their narrowed element types (an
 * intersection would leave two element types side by side).
 */
export type Narrow<T, N> = Omit<T, keyof N> & N;
