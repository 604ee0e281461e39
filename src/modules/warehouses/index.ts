// The warehouses module (sites, locations, inventory, the scan flow and transfers): what the composition root may use.
export { warehousesOperations } from './operations.ts';
export { homeWarehouse } from './receiving.ts';
export { WarehousesService } from './service.ts';
