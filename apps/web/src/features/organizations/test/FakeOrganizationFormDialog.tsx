// Stand-in for the organization form dialog (built and tested in form/): the list and detail tests
// check which props it is opened with and what happens after a save.
export function FakeOrganizationFormDialog({
  opened,
  onClose,
  organizationId,
  parentId,
}: {
  opened: boolean;
  onClose: (saved: boolean) => void;
  organizationId?: number;
  parentId?: number;
}) {
  if (!opened) return null;
  return (
    <div data-testid="fake-org-form" data-organization-id={organizationId ?? ''} data-parent-id={parentId ?? ''}>
      {organizationId ? 'Edit Organization' : 'Create Organization'}
      <button onClick={() => onClose(true)}>Save form</button>
      <button onClick={() => onClose(false)}>Cancel form</button>
    </div>
  );
}
