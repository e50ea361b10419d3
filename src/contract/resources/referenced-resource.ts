import { pathParameterNames } from './read-path.js';
import type { Resource, ResourceModel } from './resource.js';

/**
 * The resource a request body's field refers to: the stateful one whose item path ends in a parameter of the
 * field's name (`petId` in an order → `/pets/{petId}`), exact, as the id rule reads `petId` in the path. A field
 * that names no item parameter (`categoryId` where no `/categories/{categoryId}` exists) refers to nothing the
 * contract describes. A server may check that a referenced record exists (a foreign key): the runner sends the id of
 * a record of its own there, and takes a refusal of any other value as the server's choice. `from`: the resource
 * whose request it is.
 */
export function referencedResource(model: ResourceModel, field: string, from?: Resource): Resource | undefined {
  // Its own id, and its parents' (a book's authorId, which its path already gives), are no reference.
  const own = new Set<string>();
  for (let at = from; at; at = model.resources.find((r) => r.key === at?.parent)) own.add(at.key);
  return model.resources.find(
    (r) =>
      !own.has(r.key) &&
      !r.stateless &&
      r.id !== undefined &&
      r.itemPath !== undefined &&
      pathParameterNames(r.itemPath).at(-1) === field,
  );
}
