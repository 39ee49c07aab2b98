/** Turns the literal types of a message tree into `string`, keeping its shape. */
export type MessageShape<T> = { readonly [K in keyof T]: T[K] extends string ? string : MessageShape<T[K]> };
